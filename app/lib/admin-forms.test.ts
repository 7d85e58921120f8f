import { readFileSync } from "node:fs";
import { parseWithZod } from "@conform-to/zod/v4";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { chosenFileError, UPLOAD_MESSAGES, uploadFileSchema } from "./admin-forms";

const PNG_HEAD = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d]);
const MP3_HEAD = new Uint8Array(readFileSync("content/flashcards/audio/acoes-clap.mp3")).slice(0, 64);
const TEXT_HEAD = new TextEncoder().encode("just some text");
const FIVE_MB = 5 * 1024 * 1024;
const TWO_MB = 2 * 1024 * 1024;

describe("a chosen image, checked in the browser as the server checks it", () => {
  it("accepts an image up to 5 MB", () => {
    expect(chosenFileError("image", 1024, PNG_HEAD)).toBeNull();
    expect(chosenFileError("image", FIVE_MB, PNG_HEAD)).toBeNull();
  });

  it("says 'too large' for an image over 5 MB, not 'not an image'", () => {
    expect(chosenFileError("image", FIVE_MB + 1, PNG_HEAD)).toBe(UPLOAD_MESSAGES.imageTooLarge);
    expect(UPLOAD_MESSAGES.imageTooLarge).toBe("Imagem muito grande. Máximo 5MB");
  });

  it("says 'not an image' for other content (an MP3 too), and 'too large' first for any file over 5 MB", () => {
    expect(chosenFileError("image", 2048, TEXT_HEAD)).toBe(UPLOAD_MESSAGES.imageType);
    expect(chosenFileError("image", 2048, MP3_HEAD)).toBe(UPLOAD_MESSAGES.imageType);
    expect(chosenFileError("image", FIVE_MB + 1, TEXT_HEAD)).toBe(UPLOAD_MESSAGES.imageTooLarge);
  });
});

describe("a chosen recording, checked in the browser as the server checks it", () => {
  it("accepts audio up to 2 MB", () => {
    expect(chosenFileError("audio", 4096, MP3_HEAD)).toBeNull();
    expect(chosenFileError("audio", TWO_MB, MP3_HEAD)).toBeNull();
  });

  it("says 'too large' over 2 MB and 'not audio' for anything else (a PNG too)", () => {
    expect(chosenFileError("audio", TWO_MB + 1, MP3_HEAD)).toBe("Áudio muito grande. Máximo 2MB");
    expect(chosenFileError("audio", 4096, PNG_HEAD)).toBe(UPLOAD_MESSAGES.audioType);
    expect(chosenFileError("audio", 4096, TEXT_HEAD)).toBe(UPLOAD_MESSAGES.audioType);
  });
});

describe("uploadFileSchema: the declared type and size of a file input", () => {
  const schema = z.object({ image: uploadFileSchema("image"), audio: uploadFileSchema("audio") });
  const errorsOf = (entries: [string, File][]) => {
    const data = new FormData();
    for (const [name, file] of entries) data.append(name, file);
    const submission = parseWithZod(data, { schema });
    return submission.status === "success" ? {} : submission.error;
  };
  const file = (size: number, name: string, type: string) => new File([new Uint8Array(size)], name, { type });

  it("takes empty inputs as no file", () => {
    expect(errorsOf([["image", file(0, "", "application/octet-stream")]])).toEqual({});
    expect(errorsOf([])).toEqual({});
  });

  it("refuses by size first, then by the declared type", () => {
    expect(errorsOf([["image", file(FIVE_MB + 1, "a.txt", "text/plain")]])).toEqual({ image: [UPLOAD_MESSAGES.imageTooLarge] });
    expect(errorsOf([["image", file(10, "a.svg", "image/svg+xml")]])).toEqual({ image: [UPLOAD_MESSAGES.imageType] });
    expect(errorsOf([["audio", file(TWO_MB + 1, "a.mp3", "audio/mpeg")]])).toEqual({ audio: [UPLOAD_MESSAGES.audioTooLarge] });
    expect(errorsOf([["audio", file(10, "a.pdf", "application/pdf")]])).toEqual({ audio: [UPLOAD_MESSAGES.audioType] });
  });

  it("lets through the loose names browsers give recordings (the server sniffs them)", () => {
    for (const type of ["audio/mpeg", "audio/x-m4a", "audio/x-wav", "video/webm", ""]) {
      expect(errorsOf([["audio", file(10, "voz", type)]]), type).toEqual({});
    }
  });
});
