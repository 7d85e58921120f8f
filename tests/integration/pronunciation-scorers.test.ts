import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  createAlignmentScorer,
  fetchBestScores,
  fetchLevelFromSource,
  getPronunciationScorer,
  isCreditsExhausted,
  ProviderError,
  UnsupportedAudioError,
  type PronunciationInput,
  type PronunciationOptions,
} from "~/features/pronunciation/scoring/index.server";
import { encodeWav } from "~/lib/audio/wav";
import { createOpenAiProviders } from "~/server/ai/openai.server";
import type { ProviderErrorKind } from "~/server/ai/types";
import { freePort, startFakeUpstream } from "./fake-upstream";

// The pronunciation scorers over their real protocols against the fake upstream: Azure's short-audio REST
// with pronunciation assessment, the OpenAI transcription protocol (our alignment scorer) and the spec §7
// pronunciation webhooks.
const PORT = await freePort();
const API = `http://127.0.0.1:${PORT}`;
const OPENAI_KEY = "right-openai-key";
const AZURE_KEY = "right-azure-key";
let upstream: Awaited<ReturnType<typeof startFakeUpstream>>;

beforeAll(async () => {
  upstream = await startFakeUpstream(PORT, ["--openai-key", OPENAI_KEY, "--azure-key", AZURE_KEY]);
});
afterAll(() => upstream?.stop());
beforeEach(async () => {
  await fetch(`${API}/__ai/reset`, { method: "POST" });
});

type Sent = {
  path: string;
  body?: Record<string, unknown>;
  query?: Record<string, string>;
  headers?: Record<string, unknown>;
  assessment?: Record<string, unknown>;
  audio?: Record<string, unknown>;
};
const requests = async () => (await (await fetch(`${API}/__ai/requests`)).json()) as Sent[];
const hook = (query: string) => fetch(`${API}/__ai/next?${query}`, { method: "POST" });
const reply = (path: string, body: unknown, status = 200) =>
  fetch(`${API}/__ai/reply?path=${encodeURIComponent(path)}&status=${status}`, {
    method: "POST",
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
const hear = (text: string, words?: { word: string; start: number; end: number; probability?: number }[]) =>
  fetch(`${API}/__ai/transcription`, { method: "POST", body: JSON.stringify({ text, words }) });

/** 0.5 s of a 220 Hz tone as 16 kHz mono WAV. */
const wav16k = encodeWav(
  Float32Array.from({ length: 8000 }, (_, i) => 0.3 * Math.sin((2 * Math.PI * 220 * i) / 16000)),
  16000,
);

/** 0.25 s of 44.1 kHz stereo 16-bit PCM WAV (what a phone's recorder may upload). */
function wav44kStereo(): Uint8Array {
  const frames = 11025;
  const out = new Uint8Array(44 + frames * 4);
  const view = new DataView(out.buffer);
  const ascii = (at: number, text: string) => [...text].forEach((c, i) => (out[at + i] = c.charCodeAt(0)));
  ascii(0, "RIFF");
  view.setUint32(4, 36 + frames * 4, true);
  ascii(8, "WAVE");
  ascii(12, "fmt ");
  view.setUint32(16, 16, true);
  view.setUint16(20, 1, true);
  view.setUint16(22, 2, true);
  view.setUint32(24, 44100, true);
  view.setUint32(28, 44100 * 4, true);
  view.setUint16(32, 4, true);
  view.setUint16(34, 16, true);
  ascii(36, "data");
  view.setUint32(40, frames * 4, true);
  for (let i = 0; i < frames * 2; i++) view.setInt16(44 + i * 2, Math.round(8000 * Math.sin(i / 20)), true);
  return out;
}

const input = (over: Partial<PronunciationInput> = {}): PronunciationInput => ({
  bytes: wav16k,
  mimeType: "audio/wav",
  referenceText: "Good morning.",
  level: 3,
  userId: "u-42",
  ...over,
});

async function failure(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => null,
    (e: unknown) => e,
  );
}
async function expectKind(promise: Promise<unknown>, kind: ProviderErrorKind) {
  const error = await failure(promise);
  expect(error, `expected ProviderError ${kind}`).toBeInstanceOf(ProviderError);
  expect((error as ProviderError).kind).toBe(kind);
  return error as ProviderError;
}

const azureEnv = { AZURE_SPEECH_KEY: AZURE_KEY, AZURE_SPEECH_ENDPOINT: `${API}/azure/` };
const azure = (options: PronunciationOptions = {}, key = AZURE_KEY) => getPronunciationScorer({ ...azureEnv, AZURE_SPEECH_KEY: key }, options)!;

// Azure's documented sample answers ("Good morning.": accuracy 100, fluency 74, completeness 100, PronScore 84.4),
// in the flat REST-reference shape and the nested how-to shape.
const FLAT = {
  RecognitionStatus: "Success",
  Offset: "400000",
  Duration: "11000000",
  NBest: [
    {
      Confidence: "0.87",
      Lexical: "good morning",
      Display: "Good morning.",
      PronScore: 84.4,
      AccuracyScore: 100.0,
      FluencyScore: 74.0,
      CompletenessScore: 100.0,
      Words: [
        { Word: "Good", AccuracyScore: 100.0, ErrorType: "None", Offset: 500000, Duration: 2700000 },
        { Word: "morning", AccuracyScore: 100.0, ErrorType: "None", Offset: 5300000, Duration: 900000 },
      ],
    },
  ],
};
const NESTED = {
  RecognitionStatus: "Success",
  NBest: [
    {
      Lexical: "good",
      Display: "Good.",
      PronunciationAssessment: { PronScore: 52.8, AccuracyScore: 88.0, FluencyScore: 100.0, CompletenessScore: 50.0 },
      Words: [
        { Word: "good", PronunciationAssessment: { AccuracyScore: 88.0, ErrorType: "None" } },
        { Word: "morning", PronunciationAssessment: { AccuracyScore: 0, ErrorType: "Omission" } },
      ],
    },
  ],
};

describe("Azure pronunciation assessment (short-audio REST)", () => {
  it("sends the documented request and reads the flat answer", async () => {
    await reply("/azure", FLAT);
    const scorer = azure();
    expect(scorer.name).toBe("azure");
    const result = await scorer.assess(input());
    expect(result).toEqual({
      overallScore: 84.4,
      accuracyScore: 100,
      fluencyScore: 74,
      completenessScore: 100,
      pronunciationScore: 84.4,
      words: [
        { word: "Good", accuracyScore: 100, errorType: "None" },
        { word: "morning", accuracyScore: 100, errorType: "None" },
      ],
      recognizedText: "Good morning.",
    });
    const [sent] = await requests();
    expect(sent!.query).toEqual({ language: "en-US", format: "detailed" });
    expect(sent!.headers).toMatchObject({
      "content-type": "audio/wav; codecs=audio/pcm; samplerate=16000",
      accept: "application/json",
      key: AZURE_KEY,
    });
    expect(sent!.assessment).toEqual({
      ReferenceText: "Good morning.",
      GradingSystem: "HundredMark",
      Granularity: "Phoneme",
      Dimension: "Comprehensive",
      EnableMiscue: true,
    });
    expect(sent!.audio).toMatchObject({ sampleRate: 16000, channels: 1, bitsPerSample: 16, size: wav16k.length });
  });

  it("reads the nested PronunciationAssessment shape, with an omitted word", async () => {
    await reply("/azure", NESTED);
    const result = await azure().assess(input());
    expect(result).toMatchObject({ overallScore: 52.8, accuracyScore: 88, fluencyScore: 100, completenessScore: 50, recognizedText: "Good." });
    expect(result.words).toEqual([
      { word: "good", accuracyScore: 88, errorType: "None" },
      { word: "morning", accuracyScore: 0, errorType: "Omission" },
    ]);
  });

  it("answers NoMatch (nothing said) with every word omitted and zero scores", async () => {
    await reply("/azure", { RecognitionStatus: "InitialSilenceTimeout", Offset: 0, Duration: 0 });
    const result = await azure().assess(input({ referenceText: "He has a red hat." }));
    expect(result.overallScore).toBe(0);
    expect(result.completenessScore).toBe(0);
    expect(result.words.map((w) => `${w.word}:${w.errorType}`)).toEqual([
      "He:Omission",
      "has:Omission",
      "a:Omission",
      "red:Omission",
      "hat:Omission",
    ]);
  });

  it("converts a 44.1 kHz stereo WAV to 16 kHz mono before sending, and refuses other formats", async () => {
    await azure().assess(input({ bytes: wav44kStereo() }));
    const [sent] = await requests();
    expect(sent!.audio).toMatchObject({ sampleRate: 16000, channels: 1, bitsPerSample: 16 });
    expect(azure().acceptedTypes).toEqual(expect.arrayContaining(["audio/wav", "audio/ogg"]));
    expect(azure().acceptedTypes).not.toContain("audio/webm");
    expect(await failure(azure().assess(input({ mimeType: "audio/webm" })))).toBeInstanceOf(UnsupportedAudioError);
    expect(await failure(azure().assess(input({ bytes: new Uint8Array(2048).fill(7) })))).toBeInstanceOf(UnsupportedAudioError);
    expect(await requests()).toHaveLength(1);
  });

  it("reports a wrong key as refused, a malformed or score-less answer as bad_response, a slow one as timeout", async () => {
    const refused = await expectKind(azure({}, "wrong-key").assess(input()), "refused");
    expect(refused.status).toBe(401);
    await hook("mode=malformed");
    await expectKind(azure().assess(input()), "bad_response");
    await reply("/azure", { RecognitionStatus: "Success", NBest: [{ Display: "Good morning." }] });
    await expectKind(azure().assess(input()), "bad_response");
    await hook("mode=error");
    await expectKind(azure().assess(input()), "unreachable");
    await hook("mode=slow&delay=1500");
    await expectKind(azure({ audioTimeoutMs: 200 }).assess(input()), "timeout");
  });
});

describe("alignment scorer over the OpenAI transcription protocol", () => {
  const env = { OPENAI_BASE_URL: `${API}/v1`, OPENAI_API_KEY: OPENAI_KEY };

  it("scores the recognised words against the reference, end to end, without sending the sentence", async () => {
    await hear("He has a head hat.", [
      { word: "He", start: 0.0, end: 0.3, probability: 0.98 },
      { word: "has", start: 0.3, end: 0.6, probability: 0.96 },
      { word: "a", start: 0.6, end: 0.7, probability: 0.9 },
      { word: "head", start: 0.7, end: 1.0, probability: 0.8 },
      { word: "hat.", start: 1.0, end: 1.4, probability: 1 },
    ]);
    const scorer = getPronunciationScorer(env)!;
    expect(scorer.name).toBe("alignment");
    expect(scorer.acceptedTypes).toEqual(expect.arrayContaining(["audio/wav", "audio/webm", "audio/mp4", "audio/mpeg", "audio/ogg"]));
    const result = await scorer.assess(input({ referenceText: "He has a red hat." }));
    // He 100·(0.5+0.5·0.98)=99; has 98; a 95; red~head similarity 0.8667 → (30+40·0.2667/0.4)·0.9 = 51;
    // hat 100. Accuracy (99+98+95+51+100)/5 = 88.6; completeness 100; fluency: words fill 0–1.4 s, 5 words in
    // 1.4 s = 214 wpm → 100. Overall 0.6·88.6 + 0.2·100 + 0.2·100 = 93.2.
    expect(result.words).toEqual([
      { word: "He", accuracyScore: 99, errorType: "None" },
      { word: "has", accuracyScore: 98, errorType: "None" },
      { word: "a", accuracyScore: 95, errorType: "None" },
      { word: "red", accuracyScore: 51, errorType: "Mispronunciation" },
      { word: "hat", accuracyScore: 100, errorType: "None" },
    ]);
    expect(result).toMatchObject({
      accuracyScore: 88.6,
      completenessScore: 100,
      fluencyScore: 100,
      overallScore: 93.2,
      pronunciationScore: 93.2,
    });
    expect(result.recognizedText).toBe("He has a head hat.");
    const [sent] = await requests();
    expect(sent!.path).toBe("/v1/audio/transcriptions");
    expect(sent!.body).toMatchObject({ response_format: "verbose_json", "timestamp_granularities[]": ["word"] });
    expect(sent!.body).not.toHaveProperty("prompt");
    expect(JSON.stringify(sent!.body)).not.toContain("red hat");
  });

  it("marks omitted and inserted words, and a long pause lowers fluency", async () => {
    await hear("I um like the dog", [
      { word: "I", start: 0, end: 0.3 },
      { word: "um", start: 0.3, end: 1.3 },
      { word: "like", start: 1.3, end: 1.6 },
      { word: "the", start: 2.6, end: 2.8 },
      { word: "dog", start: 2.8, end: 3.2 },
    ]);
    const result = await getPronunciationScorer(env)!.assess(input({ referenceText: "I really like the dog" }));
    expect(result.words.map((w) => `${w.word}:${w.errorType}`)).toEqual([
      "I:None",
      "really:Omission",
      "um:Insertion",
      "like:None",
      "the:None",
      "dog:None",
    ]);
    // speaking (matched words) 0.3+0.3+0.2+0.4 = 1.2 s of 3.2 s → 37.5; 4 words in 3.2 s = 75 wpm ≥ 70 → 37.5.
    expect(result.fluencyScore).toBe(37.5);
    expect(result.completenessScore).toBe(80);
    expect(result.accuracyScore).toBe(100);
    // sorted [37.5, 80, 100] → 0.6·37.5 + 0.2·80 + 0.2·100 = 58.5
    expect(result.overallScore).toBe(58.5);
  });

  it("passes provider failures through as ProviderError", async () => {
    await hook("mode=slow&delay=1500");
    await expectKind(getPronunciationScorer(env, { audioTimeoutMs: 200 })!.assess(input()), "timeout");
    await hook("mode=malformed");
    await expectKind(getPronunciationScorer(env)!.assess(input()), "bad_response");
    await expectKind(getPronunciationScorer({ ...env, OPENAI_API_KEY: "wrong" })!.assess(input()), "refused");
  });

  it("works over any SpeechToText (here the OpenAI one built directly)", async () => {
    await hear("good morning");
    const stt = createOpenAiProviders({ baseUrl: `${API}/v1`, apiKey: OPENAI_KEY }).stt!;
    const result = await createAlignmentScorer(stt).assess(input());
    expect(result.words.map((w) => w.errorType)).toEqual(["None", "None"]);
    // the fake times each word 0.35 s in 0.4 s slots: 0.7 s spoken of 0.75 s → fluency 93.3;
    // overall 0.6·93.3 + 0.2·100 + 0.2·100 = 95.98 → 96
    expect(result.fluencyScore).toBe(93.3);
    expect(result.overallScore).toBe(96);
  });
});

describe("pronunciation webhooks (spec §7)", () => {
  const hookEnv = {
    NIKA_PRONUNCIATION_WEBHOOK_URL: `${API}/webhook/pronunciation-game`,
    NIKA_PRONUNCIATION_SOURCE_WEBHOOK_URL: `${API}/webhook/pronunciation-game-source`,
    NIKA_USER_LEVEL_WEBHOOK_URL: `${API}/webhook/user-level`,
  };

  it("pronunciation-game: sends base64 16 kHz mono WAV, level, sentence and user_id; reads the result", async () => {
    await reply("/webhook/pronunciation-game", {
      overallScore: 71.2,
      accuracyScore: 80,
      completenessScore: 75,
      pronunciationScore: 70,
      fluencyScore: "66.66",
      wordDetails: [
        { Word: "The", AccuracyScore: 90, ErrorType: "None" },
        { Word: "cat", AccuracyScore: 40, ErrorType: "Mispronunciation" },
        { Word: "sat", AccuracyScore: 0, ErrorType: "Omission" },
      ],
    });
    const scorer = getPronunciationScorer(hookEnv)!;
    expect(scorer.name).toBe("webhook");
    expect(scorer.acceptedTypes).not.toContain("audio/webm");
    const result = await scorer.assess(input({ bytes: wav44kStereo(), referenceText: "The cat sat.", level: 7 }));
    expect(result).toEqual({
      overallScore: 71.2,
      accuracyScore: 80,
      completenessScore: 75,
      pronunciationScore: 70,
      fluencyScore: 66.7,
      words: [
        { word: "The", accuracyScore: 90, errorType: "None" },
        { word: "cat", accuracyScore: 40, errorType: "Mispronunciation" },
        { word: "sat", accuracyScore: 0, errorType: "Omission" },
      ],
      recognizedText: "The cat",
    });
    const [sent] = await requests();
    expect(sent!.body).toMatchObject({
      level: 7,
      sentence: "The cat sat.",
      user_id: "u-42",
      audio: { sampleRate: 16000, channels: 1, bitsPerSample: 16 },
    });
  });

  it("pronunciation-game: creditsExhausted, a bad shape, a timeout", async () => {
    const scorer = getPronunciationScorer(hookEnv)!;
    await reply("/webhook/pronunciation-game", { creditsExhausted: true });
    const credits = await expectKind(scorer.assess(input()), "refused");
    expect(isCreditsExhausted(credits)).toBe(true);
    await reply("/webhook/pronunciation-game", { overallScore: 50, wordDetails: "nope" });
    const bad = await expectKind(scorer.assess(input()), "bad_response");
    expect(bad.message).toContain("Invalid webhook response");
    expect(isCreditsExhausted(bad)).toBe(false);
    await hook("mode=slow&delay=1500");
    await expectKind(getPronunciationScorer(hookEnv, { audioTimeoutMs: 200 })!.assess(input()), "timeout");
  });

  it("pronunciation-game-source: a level, '0 monthly credits', and null when not configured", async () => {
    expect(await fetchLevelFromSource(hookEnv, { userId: "u-1", level: 12 })).toEqual({
      creditsExhausted: false,
      level: 12,
      sentence: "The big dog is on the bed.",
      audioUrl: `${API}/__ai/reply.mp3`,
    });
    expect((await requests())[0]!.body).toEqual({ user_id: "u-1", level: 12 });
    await reply("/webhook/pronunciation-game-source", [{ text: "0 monthly credits" }]);
    expect(await fetchLevelFromSource(hookEnv, { userId: "u-1", level: 12 })).toEqual({ creditsExhausted: true });
    await reply("/webhook/pronunciation-game-source", { Sentence: 42 });
    await expectKind(fetchLevelFromSource(hookEnv, { userId: "u-1", level: 12 }), "bad_response");
    await hook("mode=slow&delay=1500");
    await expectKind(fetchLevelFromSource(hookEnv, { userId: "u-1", level: 12 }, { chatTimeoutMs: 200 }), "timeout");
    expect(await fetchLevelFromSource({}, { userId: "u-1", level: 1 })).toBeNull();
  });

  it("user-level: best scores with no-cache; retried twice after failures", async () => {
    const scores = await fetchBestScores(hookEnv, "u-9", { retryDelayMs: 10 });
    expect([...scores!]).toEqual([
      [1, 80],
      [2, 45.5],
    ]);
    const [sent] = await requests();
    expect(sent!.body).toEqual({ user_id: "u-9", "no-cache": true });
    expect(sent!.headers).toEqual({ "cache-control": "no-cache" });

    // fails twice (HTTP 500, then a reply that is not JSON), then succeeds
    await fetch(`${API}/__ai/reset`, { method: "POST" });
    await reply("/webhook/user-level", { message: "boom" }, 500);
    await reply("/webhook/user-level", "not json");
    await reply("/webhook/user-level", { best_scores_map: { "5": 99, abc: 3, "101": 50 } });
    expect([...(await fetchBestScores(hookEnv, "u-9", { retryDelayMs: 10 }))!]).toEqual([[5, 99]]);
    expect((await requests()).filter((r) => r.path === "/webhook/user-level")).toHaveLength(3);

    await fetch(`${API}/__ai/reset`, { method: "POST" });
    await hook("mode=error&count=3");
    await expectKind(fetchBestScores(hookEnv, "u-9", { retryDelayMs: 10 }), "unreachable");
    expect(await requests()).toHaveLength(3);

    await fetch(`${API}/__ai/reset`, { method: "POST" });
    await reply("/webhook/user-level", { error: "no" }, 401);
    await expectKind(fetchBestScores(hookEnv, "u-9", { retryDelayMs: 10 }), "refused");
    expect(await requests()).toHaveLength(1); // a refusal is not retried
    expect(await fetchBestScores({}, "u-9")).toBeNull();
  });
});

describe("getPronunciationScorer", () => {
  it("chooses Azure, then a chat transcription provider, then the webhook, else null", () => {
    const openai = { OPENAI_BASE_URL: `${API}/v1` };
    const hookUrl = { NIKA_PRONUNCIATION_WEBHOOK_URL: `${API}/webhook/pronunciation-game` };
    const ai = { run: async () => ({}) } as unknown as Ai;
    expect(getPronunciationScorer({ ...azureEnv, ...openai, ...hookUrl })!.name).toBe("azure");
    expect(getPronunciationScorer({ AZURE_SPEECH_KEY: "k", AZURE_SPEECH_REGION: "brazilsouth", ...openai })!.name).toBe("azure");
    expect(getPronunciationScorer({ AZURE_SPEECH_KEY: "k", ...openai, ...hookUrl })!.name).toBe("alignment");
    expect(getPronunciationScorer({ AI: ai, ...hookUrl })!.name).toBe("alignment");
    expect(getPronunciationScorer(hookUrl)!.name).toBe("webhook");
    const chatHooks = { NIKA_CHAT_WEBHOOK_URL: `${API}/webhook/nika-chat`, NIKA_USER_AUDIO_WEBHOOK_URL: `${API}/webhook/user-audio` };
    expect(getPronunciationScorer({ ...chatHooks, ...hookUrl })!.name).toBe("webhook");
    const overUserAudio = getPronunciationScorer(chatHooks)!;
    expect(overUserAudio.name).toBe("alignment");
    expect(overUserAudio.acceptedTypes).not.toContain("audio/webm");
    expect(getPronunciationScorer({ NIKA_CHAT_WEBHOOK_URL: `${API}/webhook/nika-chat` })).toBeNull();
    expect(getPronunciationScorer({})).toBeNull();
  });
});
