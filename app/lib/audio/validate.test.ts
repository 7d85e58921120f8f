import { describe, expect, it } from "vitest";
import {
  AUDIO_BLOB_MESSAGES,
  CHUNK_MS,
  HIDDEN_RELEASE_MS,
  MAX_AUDIO_BYTES,
  MIN_AUDIO_BYTES,
  WAV_SAMPLE_RATE,
  validateAudioBlob,
} from "./validate";

describe("audio constants (spec §5, §9)", () => {
  it("matches the spec", () => {
    expect(WAV_SAMPLE_RATE).toBe(16000);
    expect(MIN_AUDIO_BYTES).toBe(1024);
    expect(MAX_AUDIO_BYTES).toBe(52_428_800);
    expect(CHUNK_MS).toBe(250);
    expect(HIDDEN_RELEASE_MS).toBe(30_000);
  });
});

describe("validateAudioBlob", () => {
  it("rejects an empty recording with the spec text", () => {
    for (const blob of [null, undefined, { size: 0, type: "audio/wav" }, new Blob([], { type: "audio/wav" })]) {
      const err = validateAudioBlob(blob);
      expect(err?.code).toBe("empty");
      expect(err?.en).toBe("Recording is empty - please try again");
      expect(err?.pt).toBe(AUDIO_BLOB_MESSAGES.empty.pt);
    }
  });

  it("requires an audio/* type", () => {
    expect(validateAudioBlob({ size: 2048, type: "video/webm" })?.code).toBe("type");
    expect(validateAudioBlob({ size: 2048, type: "" })?.code).toBe("type");
    expect(validateAudioBlob({ size: 2048, type: "audio/" })?.code).toBe("type");
    expect(validateAudioBlob({ size: 2048, type: "audio/webm;codecs=opus" })).toBeNull();
  });

  it("enforces 1 024 bytes to 50 MB inclusive", () => {
    expect(validateAudioBlob({ size: 1023, type: "audio/wav" })?.code).toBe("too-small");
    expect(validateAudioBlob({ size: 1024, type: "audio/wav" })).toBeNull();
    expect(validateAudioBlob({ size: 52_428_800, type: "audio/wav" })).toBeNull();
    const big = validateAudioBlob({ size: 52_428_801, type: "audio/wav" });
    expect(big?.code).toBe("too-large");
    expect(big?.pt).toBeTruthy();
    expect(big?.en).toBeTruthy();
  });

  it("works on a real Blob", () => {
    expect(validateAudioBlob(new Blob([new Uint8Array(2000)], { type: "audio/wav" }))).toBeNull();
  });
});
