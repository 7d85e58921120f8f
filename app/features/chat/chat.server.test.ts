// The chat core's pure rules (no database): message and voice validation at their limits, the HTTP
// status and final SSE event of every outcome, and the level-marker filter of the English test.
import { describe, expect, it } from "vitest";
import { ChatError, markerHider } from "~/features/conversation";
import { MAX_AUDIO_BYTES, MIN_AUDIO_BYTES } from "~/lib/audio/validate";
import { finalEvent, formatEvent, statusOf } from "./events.server";
import {
  CONNECTION_ERROR_MESSAGE,
  CONNECTION_ERROR_TITLE,
  MESSAGE_MAX_CHARS,
  NOT_UNDERSTOOD,
  validateMessageText,
  validateVoice,
  type GreetResult,
  type SendResult,
} from "./sending.server";

function chatError(run: () => unknown): ChatError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ChatError);
    return error as ChatError;
  }
  throw new Error("expected a ChatError");
}

describe("validateMessageText", () => {
  it("trims, turns CRLF and lone CR into LF, and accepts exactly MESSAGE_MAX_CHARS", () => {
    expect(validateMessageText("  oi\r\ntudo\rbem \n")).toBe("oi\ntudo\nbem");
    expect(validateMessageText(`\r\n${"x".repeat(MESSAGE_MAX_CHARS)}\r\n`)).toHaveLength(MESSAGE_MAX_CHARS);
  });

  it("refuses empty, blank, non-text and over-long messages with 400 invalid_text", () => {
    for (const raw of ["", " \r\n\t", null, undefined, 12, { text: "oi" }]) {
      const error = chatError(() => validateMessageText(raw));
      expect([error.status, error.code, error.message]).toEqual([400, "invalid_text", "Digite uma mensagem."]);
    }
    const long = chatError(() => validateMessageText("y".repeat(MESSAGE_MAX_CHARS + 1)));
    expect([long.status, long.message]).toEqual([400, `Mensagem muito longa (máximo ${MESSAGE_MAX_CHARS} caracteres).`]);
  });
});

describe("validateVoice", () => {
  it("accepts audio from MIN_AUDIO_BYTES to MAX_AUDIO_BYTES and normalises the type", () => {
    const small = validateVoice({ bytes: new Uint8Array(MIN_AUDIO_BYTES), mimeType: " Audio/WAV ;codecs=1" });
    expect([small.bytes.byteLength, small.mimeType]).toEqual([MIN_AUDIO_BYTES, "audio/wav"]);
    const big = validateVoice({ bytes: new Uint8Array(MAX_AUDIO_BYTES), mimeType: "audio/webm;codecs=opus" });
    expect([big.bytes.byteLength, big.mimeType]).toEqual([MAX_AUDIO_BYTES, "audio/webm"]);
  });

  it("answers 400 below the minimum, 413 above the maximum, 415 for what is not audio", () => {
    const cases: [Uint8Array, string, number][] = [
      [new Uint8Array(0), "audio/wav", 400],
      [new Uint8Array(MIN_AUDIO_BYTES - 1), "audio/wav", 400],
      [new Uint8Array(MAX_AUDIO_BYTES + 1), "audio/wav", 413],
      [new Uint8Array(MIN_AUDIO_BYTES), "video/webm", 415],
    ];
    for (const [bytes, mimeType, status] of cases) {
      const error = chatError(() => validateVoice({ bytes, mimeType }));
      expect([bytes.byteLength, mimeType, error.status, error.code]).toEqual([bytes.byteLength, mimeType, status, "invalid_audio"]);
    }
  });
});

describe("outcomes as HTTP statuses and final events", () => {
  const reply = { id: "m1", text: "Olá!", audioUrl: null };
  const providerError = (kind: "timeout" | "unreachable" | "bad_response"): SendResult => ({
    status: "provider_error",
    code: "PROVIDER_ERROR",
    kind,
    title: CONNECTION_ERROR_TITLE,
    message: CONNECTION_ERROR_MESSAGE,
  });
  const outcomes: [SendResult | GreetResult, number][] = [
    [{ status: "ok", userMessageId: "u1", reply, englishLevel: "B1", balance: 3 }, 200],
    [{ status: "ok", reply }, 200],
    [{ status: "already_started" }, 409],
    [{ status: "credits_exhausted", code: "CREDITS_EXHAUSTED", balance: 0 }, 402],
    [{ status: "not_understood", code: "NOT_UNDERSTOOD", message: NOT_UNDERSTOOD }, 422],
    [providerError("timeout"), 504],
    [providerError("unreachable"), 502],
    [providerError("bad_response"), 502],
    [{ status: "unavailable", code: "NIKA_UNAVAILABLE", message: "Nika não está disponível" }, 503],
  ];

  it("maps each outcome to its status, and every error event carries the same status", () => {
    for (const [outcome, status] of outcomes) {
      expect([outcome.status, statusOf(outcome)]).toEqual([outcome.status, status]);
      const event = finalEvent(outcome);
      if (status === 200) expect(event.event).toBe("done");
      else expect([event.event, (event.data as { status: number }).status]).toEqual(["error", status]);
    }
  });

  it("says what happened in each final event", () => {
    expect(finalEvent(outcomes[0]![0])).toEqual({ event: "done", data: { ...reply, englishLevel: "B1", balance: 3 } });
    expect(finalEvent(outcomes[1]![0])).toEqual({ event: "done", data: reply });
    expect(finalEvent(outcomes[2]![0])).toEqual({
      event: "error",
      data: { code: "ALREADY_STARTED", message: "A conversa já começou.", status: 409 },
    });
    expect(finalEvent(outcomes[3]![0])).toEqual({
      event: "error",
      data: { code: "CREDITS_EXHAUSTED", message: "Seus créditos acabaram.", status: 402 },
    });
    expect(finalEvent(outcomes[4]![0])).toEqual({ event: "error", data: { code: "NOT_UNDERSTOOD", message: NOT_UNDERSTOOD, status: 422 } });
    expect(finalEvent(outcomes[5]![0])).toEqual({
      event: "error",
      data: { code: "PROVIDER_ERROR", title: CONNECTION_ERROR_TITLE, message: CONNECTION_ERROR_MESSAGE, status: 504 },
    });
    expect(finalEvent(outcomes[8]![0])).toEqual({
      event: "error",
      data: { code: "NIKA_UNAVAILABLE", message: "Nika não está disponível", status: 503 },
    });
  });

  it("formats one SSE event per outcome", () => {
    expect(formatEvent({ event: "token", data: { t: "Oi\n" } })).toBe('event: token\ndata: {"t":"Oi\\n"}\n\n');
  });
});

describe("markerHider", () => {
  const run = (pieces: string[]) => {
    const hider = markerHider();
    const shown = pieces.map((p) => hider.push(p));
    return { shown, rest: hider.flush() };
  };

  it("shows text as it comes, holding back only a possible marker start", () => {
    expect(run(["Hello ", "world["]).shown).toEqual(["Hello ", "world"]);
    expect(run(["Hello ", "world["]).rest).toBe("[");
    expect(run(["a[", "b"]).shown).toEqual(["a", "[b"]);
  });

  it("drops a marker that ends the reply; brackets that never close are shown at the end", () => {
    expect(run(["Você é ", "[[NIKA_LEVEL:C1]]"])).toEqual({ shown: ["Você é ", ""], rest: "" });
    expect(run(["Fim ", "[[talvez"])).toEqual({ shown: ["Fim ", ""], rest: "[[talvez" });
  });
});
