// One local process that stands in for the outside services in end-to-end tests, speaking their real
// HTTP protocols: the Resend e-mail API (POST /emails); an OpenAI-compatible AI API (POST /v1/chat/completions,
// /v1/audio/transcriptions, /v1/audio/speech); the spec §7 automation webhooks (POST /webhook/nika-chat,
// /webhook/user-audio, and the pronunciation game's /webhook/pronunciation-game, /webhook/pronunciation-game-source,
// /webhook/user-level); Azure Speech's short-audio REST with pronunciation assessment
// (POST …/speech/recognition/conversation/cognitiveservices/v1); Google's OAuth2/OpenID Connect endpoints
// (google.mjs, under /google/); Stripe's Checkout Sessions API, hosted checkout page and signed webhooks
// (stripe.mjs: POST /v1/checkout/sessions, /stripe/checkout/:id); the OpenAI Realtime API over WebSocket
// (realtime.mjs: upgrade at /v1/realtime).
// Test-only hooks live under /__.
//
//   node tests/fake-upstream/server.mjs [--port 4010] [--api-key test-key] [--openai-key test-openai-key]
//        [--azure-key test-azure-key] [--token-delay MS]
//
// AI test hooks:
//   POST /__ai/config?tokenDelay=MS&transcript=TEXT   per-token delay of chat streams (also header x-fake-token-delay)
//   POST /__ai/next?mode=slow|stall|malformed|error[&delay=MS][&count=N]
//        slow: wait before answering; stall: stream one token then hang; malformed: broken SSE/JSON; error: HTTP 500
//   GET  /__ai/requests                               what the AI endpoints received (newest last; reviews apart)
//   POST /__ai/review   body: the verbatim content of the next review answer (a structured `json_schema` call),
//        `{"mistakes": [...], "used_correctly": [0]}` (either may be malformed on purpose); without one, a review
//        finds the mistakes of FAKE_MISTAKES in the learner's text, and `used_correctly` lists each practised form
//        of the review's prompt (the conversation's focus) whose right form the text has and whose wrong one it lacks
//   GET  /__ai/reviews                                the review calls received
//   POST /__ai/transcription  body {text, words?: [{word, start, end, probability?}]}
//        what /v1/audio/transcriptions hears from now on (words without timestamps get 0.4 s each)
//   POST /__ai/reply?path=/webhook/user-level[&status=N]  body: the exact reply (any text) of the next call to
//        that path, after its protocol checks (Azure: path=/azure, any base)
//
// Realtime test hooks (details in realtime.mjs):
//   POST /__live/next?mode=refuse|error|stall|close[&count=N]   failure of the next connection(s)
//   POST /__live/config  body {transcript?, reply?, replyMs?, chunkMs?, pace?, vadThreshold?}
//   POST /__live/reset;  GET /__live/sessions   every connection: its session.update, events, responses, truncates
import http from "node:http";
import { parseArgs } from "node:util";
import { handleGoogle } from "./google.mjs";
import { attachRealtime, handleLive } from "./realtime.mjs";
import { handleStripe } from "./stripe.mjs";

const { values: opts } = parseArgs({
  options: {
    port: { type: "string", default: "4010" },
    "api-key": { type: "string", default: "test-mail-key" },
    "openai-key": { type: "string", default: "test-openai-key" },
    "azure-key": { type: "string", default: "test-azure-key" },
    // default per-token delay of chat streams (ms), so a browser can see a reply arrive in pieces
    "token-delay": { type: "string", default: "0" },
    "google-client-id": { type: "string", default: "test-google-client" },
    "google-client-secret": { type: "string", default: "test-google-secret" },
    "stripe-key": { type: "string", default: "sk_test_fake" },
    "stripe-webhook-secret": { type: "string", default: "whsec_test_fake" },
    // where the hosted checkout page delivers its signed events
    "stripe-webhook-url": { type: "string", default: "http://localhost:8797/api/stripe/webhook" },
  },
});

const emails = [];
let failNext = 0;

function json(res, status, body) {
  res.writeHead(status, { "Content-Type": "application/json" });
  res.end(JSON.stringify(body));
}

async function readJson(req) {
  let body = "";
  for await (const chunk of req) body += chunk;
  return body ? JSON.parse(body) : {};
}

// ——— AI state ———
let tokenDelayMs = Number(opts["token-delay"]);
let transcript = "I like to play football";
const aiNext = []; // queued {mode, delay}
const aiRequests = [];
let scriptedTranscription = null; // {text, words?}
const scriptedReplies = new Map(); // path → [{status, body}]
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function readBody(req) {
  const chunks = [];
  for await (const chunk of req) chunks.push(chunk);
  return Buffer.concat(chunks);
}

/** The hook queued for the next AI call, applied before any answer: "slow" waits, "error" answers 500. */
async function nextHook(res) {
  const hook = aiNext.shift();
  if (!hook) return null;
  if (hook.mode === "slow") {
    await sleep(hook.delay);
    return null;
  }
  if (hook.mode === "error") {
    json(res, 500, { error: { message: "Injected failure", type: "server_error" } });
    return "handled";
  }
  return hook;
}

function openAiAuth(req, res) {
  if (req.headers.authorization === `Bearer ${opts["openai-key"]}`) return true;
  json(res, 401, { error: { message: "Incorrect API key provided", type: "invalid_request_error", code: "invalid_api_key" } });
  return false;
}

// ——— the review of a learner's turn (structured output) ———
const reviewRequests = [];
const reviewScript = []; // queued answers: the completion's content, verbatim (may be malformed on purpose)

/** The mistakes the fake finds on its own, so a journey can make one: a pattern of the learner's text → a mistake. */
const FAKE_MISTAKES = [
  {
    pattern: /\bI have (\d+) years\b/i,
    mistake: (m) => ({
      wrong: m[0],
      right: `I am ${m[1]} years old`,
      kind: "false_friend",
      explanation: "Em inglês, a idade vem com o verbo to be: I am 20 years old.",
      alternatives: [`I have ${m[1]} years old`, `I am ${m[1]} years`, `I have ${m[1]} age`],
    }),
  },
  {
    pattern: /\bpeople is\b/i,
    mistake: (m) => ({
      wrong: m[0],
      right: "people are",
      kind: "grammar",
      explanation: "People já é plural em inglês: use are.",
      alternatives: ["people was", "peoples is", "people be"],
    }),
  },
];

/**
 * The practised forms the review's system prompt numbers (`0. "people are" (once said as "people is")`, as
 * notebook/review.server's focusReviewPrompt writes them): the conversation's focus.
 */
function focusOf(messages) {
  const system = messages.find((m) => m.role === "system")?.content ?? "";
  const line = /^(\d+)\. ("(?:[^"\\]|\\.)*") \(once said as ("(?:[^"\\]|\\.)*")\)$/gm;
  return [...system.matchAll(line)].map((m) => ({ index: Number(m[1]), right: JSON.parse(m[2]), wrong: JSON.parse(m[3]) }));
}

function reviewAnswer(res, body) {
  if (!body.model || !Array.isArray(body.messages)) return json(res, 400, { error: { message: "model and messages are required" } });
  reviewRequests.push({ body });
  const learnerText = [...body.messages].reverse().find((m) => m.role === "user")?.content ?? "";
  const said = learnerText.toLowerCase();
  const content =
    reviewScript.length > 0
      ? reviewScript.shift()
      : JSON.stringify({
          mistakes: FAKE_MISTAKES.flatMap(({ pattern, mistake }) => {
            const match = pattern.exec(learnerText);
            return match ? [mistake(match)] : [];
          }),
          // A focus entry is used right when the learner's text has its right form and not its wrong one.
          used_correctly: focusOf(body.messages)
            .filter(({ right, wrong }) => said.includes(right.toLowerCase()) && !said.includes(wrong.toLowerCase()))
            .map(({ index }) => index),
        });
  return json(res, 200, {
    id: `chatcmpl-${crypto.randomUUID()}`,
    object: "chat.completion",
    created: Math.floor(Date.now() / 1000),
    model: body.model,
    choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: "stop" }],
  });
}

/** Nika's deterministic fake reply, split into tokens the way a model streams (words with their spaces). */
function replyFor(messages) {
  const last = [...messages].reverse().find((m) => m.role === "user");
  const text = `Você disse: "${last?.content ?? ""}". Muito bem, continue praticando!`;
  return { text, tokens: text.match(/\S+\s*|\s+/g) ?? [text] };
}

/** 20 silent MPEG-1 Layer III frames (128 kbit/s, 44.1 kHz, ≈0.5 s): a small MP3 browsers can play (one frame is too short to open). */
function silentMp3() {
  const frame = Buffer.alloc(417);
  frame.set([0xff, 0xfb, 0x90, 0x64]);
  return Buffer.concat(Array(20).fill(frame));
}

/** 0.1 s of 16 kHz mono 16-bit PCM silence as WAV. */
function silentWav() {
  const samples = 1600;
  const buf = Buffer.alloc(44 + samples * 2);
  buf.write("RIFF", 0);
  buf.writeUInt32LE(36 + samples * 2, 4);
  buf.write("WAVE", 8);
  buf.write("fmt ", 12);
  buf.writeUInt32LE(16, 16);
  buf.writeUInt16LE(1, 20);
  buf.writeUInt16LE(1, 22);
  buf.writeUInt32LE(16000, 24);
  buf.writeUInt32LE(32000, 28);
  buf.writeUInt16LE(2, 32);
  buf.writeUInt16LE(16, 34);
  buf.write("data", 36);
  buf.writeUInt32LE(samples * 2, 40);
  return buf;
}

function transcriptWords(text) {
  return text
    .split(/\s+/)
    .filter(Boolean)
    .map((word, i) => ({ word, start: +(i * 0.4).toFixed(2), end: +(i * 0.4 + 0.35).toFixed(2) }));
}

/** Format of a RIFF/WAVE file (first fmt chunk), or null when it is not one. */
function wavInfo(buf) {
  if (buf.length < 12 || buf.toString("ascii", 0, 4) !== "RIFF" || buf.toString("ascii", 8, 12) !== "WAVE") return null;
  for (let at = 12; at + 8 <= buf.length; at += 8 + buf.readUInt32LE(at + 4) + (buf.readUInt32LE(at + 4) % 2)) {
    if (buf.toString("ascii", at, at + 4) === "fmt ") {
      return {
        format: buf.readUInt16LE(at + 8),
        channels: buf.readUInt16LE(at + 10),
        sampleRate: buf.readUInt32LE(at + 12),
        bitsPerSample: buf.readUInt16LE(at + 22),
        size: buf.length,
      };
    }
  }
  return null;
}

const sentenceWords = (text) =>
  String(text)
    .split(/\s+/)
    .map((w) => w.replace(/^[^\w']+|[^\w']+$/g, ""))
    .filter(Boolean);

/** A scripted reply queued for `path` (answered verbatim), else the queued failure hook. True when answered. */
async function scriptedOrHook(res, path) {
  const scripted = scriptedReplies.get(path)?.shift();
  if (scripted) {
    res.writeHead(scripted.status, { "Content-Type": "application/json" });
    res.end(scripted.body);
    return true;
  }
  const hook = await nextHook(res);
  if (hook === "handled") return true;
  if (hook?.mode === "malformed") {
    res.writeHead(200, { "Content-Type": "application/json" });
    res.end("<html>upstream error</html>");
    return true;
  }
  return false;
}

// ——— Azure Speech, short-audio REST with pronunciation assessment:
// https://learn.microsoft.com/azure/ai-services/speech-service/rest-speech-to-text-short ———
const AZURE_PATH = "/speech/recognition/conversation/cognitiveservices/v1";

async function handleAzure(req, res, url) {
  const audio = await readBody(req);
  const contentType = req.headers["content-type"] ?? "";
  let assessment = null;
  try {
    assessment = JSON.parse(Buffer.from(String(req.headers["pronunciation-assessment"] ?? ""), "base64").toString("utf8"));
  } catch {
    assessment = null;
  }
  aiRequests.push({
    path: "/azure",
    query: Object.fromEntries(url.searchParams),
    headers: { "content-type": contentType, accept: req.headers.accept ?? null, key: req.headers["ocp-apim-subscription-key"] ?? null },
    assessment,
    audio: wavInfo(audio) ?? { size: audio.length, ogg: audio.toString("ascii", 0, 4) === "OggS" },
  });
  if (req.headers["ocp-apim-subscription-key"] !== opts["azure-key"]) {
    return json(res, 401, { error: { code: "401", message: "Access denied due to invalid subscription key or wrong API endpoint." } });
  }
  if (url.searchParams.get("language") !== "en-US" || url.searchParams.get("format") !== "detailed") {
    return json(res, 400, { error: { message: "language=en-US and format=detailed expected" } });
  }
  const wav = /^audio\/wav; ?codecs=audio\/pcm; ?samplerate=16000$/i.test(contentType);
  const ogg = /^audio\/ogg; ?codecs=opus$/i.test(contentType);
  const info = wavInfo(audio);
  if (!(wav && info?.sampleRate === 16000 && info.channels === 1 && info.bitsPerSample === 16) && !ogg) {
    return json(res, 400, { error: { message: "Unsupported audio format" } });
  }
  if (!assessment || typeof assessment.ReferenceText !== "string" || assessment.GradingSystem !== "HundredMark" || !assessment.Dimension) {
    return json(res, 400, { error: { message: "Invalid Pronunciation-Assessment header" } });
  }
  if (await scriptedOrHook(res, "/azure")) return;
  const words = sentenceWords(assessment.ReferenceText);
  return json(res, 200, {
    RecognitionStatus: "Success",
    Offset: 400000,
    Duration: 4000000 * words.length,
    NBest: [
      {
        Confidence: 0.9,
        Lexical: words.join(" ").toLowerCase(),
        Display: assessment.ReferenceText,
        AccuracyScore: 95,
        FluencyScore: 90,
        CompletenessScore: 100,
        PronScore: 93,
        Words: words.map((Word, i) => ({ Word, AccuracyScore: 95, ErrorType: "None", Offset: 500000 + i * 4000000, Duration: 3000000 })),
      },
    ],
  });
}

async function handleAi(req, res, url) {
  // ——— OpenAI: https://platform.openai.com/docs/api-reference/chat/create ———
  if (url.pathname === "/v1/chat/completions") {
    if (!openAiAuth(req, res)) return;
    const body = JSON.parse((await readBody(req)).toString("utf8") || "{}");
    // A structured review of the learner's turn ("Meu caderno"): its own log and script, never the chat's hooks.
    if (body.response_format?.type === "json_schema") return reviewAnswer(res, body);
    aiRequests.push({ path: url.pathname, body });
    if (!body.model || !Array.isArray(body.messages) || body.messages.length === 0) {
      return json(res, 400, { error: { message: "model and messages are required", type: "invalid_request_error" } });
    }
    const hook = await nextHook(res);
    if (hook === "handled") return;
    const { text, tokens } = replyFor(body.messages);
    const created = Math.floor(Date.now() / 1000);
    const id = `chatcmpl-${crypto.randomUUID()}`;
    if (!body.stream) {
      if (hook?.mode === "malformed") {
        res.writeHead(200, { "Content-Type": "application/json" });
        return res.end('{"choices": [ {"message": ');
      }
      return json(res, 200, {
        id,
        object: "chat.completion",
        created,
        model: body.model,
        choices: [{ index: 0, message: { role: "assistant", content: text }, finish_reason: "stop" }],
      });
    }
    const delay = Number(req.headers["x-fake-token-delay"] ?? tokenDelayMs);
    res.writeHead(200, { "Content-Type": "text/event-stream", "Cache-Control": "no-cache", Connection: "keep-alive" });
    res.flushHeaders();
    const chunk = (delta, finish = null) =>
      `data: ${JSON.stringify({ id, object: "chat.completion.chunk", created, model: body.model, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
    res.write(chunk({ role: "assistant", content: "" }));
    if (hook?.mode === "malformed") {
      res.write('data: {"choices":[{"delta":{"content":"Ol\n\n');
      res.write("data: this is not json\n\n");
      return res.end("data: [DONE]\n\n");
    }
    for (const [i, token] of tokens.entries()) {
      if (res.destroyed) return;
      if (delay > 0) await sleep(delay);
      res.write(chunk({ content: token }));
      if (hook?.mode === "stall" && i === 0) {
        await sleep(hook.delay);
        if (res.destroyed) return;
      }
    }
    res.write(chunk({}, "stop"));
    return res.end("data: [DONE]\n\n");
  }

  // ——— OpenAI: https://platform.openai.com/docs/api-reference/audio/createTranscription ———
  if (url.pathname === "/v1/audio/transcriptions") {
    if (!openAiAuth(req, res)) return;
    const raw = await readBody(req);
    const form = await new Request("http://local/", {
      method: "POST",
      headers: { "content-type": req.headers["content-type"] ?? "" },
      body: raw,
    }).formData();
    const file = form.get("file");
    const fields = Object.fromEntries([...form.entries()].filter(([, v]) => typeof v === "string"));
    fields["timestamp_granularities[]"] = form.getAll("timestamp_granularities[]");
    aiRequests.push({
      path: url.pathname,
      body: { ...fields, file: file && typeof file !== "string" ? { name: file.name, type: file.type, size: file.size } : null },
    });
    if (!file || typeof file === "string" || file.size === 0 || !fields.model) {
      return json(res, 400, { error: { message: "file and model are required", type: "invalid_request_error" } });
    }
    const hook = await nextHook(res);
    if (hook === "handled") return;
    if (hook?.mode === "malformed") {
      res.writeHead(200, { "Content-Type": "application/json" });
      return res.end("<html>upstream error</html>");
    }
    if (fields.response_format === "text") {
      res.writeHead(200, { "Content-Type": "text/plain" });
      return res.end(transcript);
    }
    const verbose = fields.response_format === "verbose_json";
    const heard = scriptedTranscription?.text ?? transcript;
    const wantWords = verbose && fields["timestamp_granularities[]"].includes("word");
    const words = wantWords ? (scriptedTranscription?.words ?? transcriptWords(heard)) : undefined;
    return json(
      res,
      200,
      verbose
        ? { task: "transcribe", language: "english", duration: words?.at(-1)?.end ?? 1, text: heard, ...(words ? { words } : {}) }
        : { text: heard },
    );
  }

  // ——— OpenAI: https://platform.openai.com/docs/api-reference/audio/createSpeech ———
  if (url.pathname === "/v1/audio/speech") {
    if (!openAiAuth(req, res)) return;
    const body = JSON.parse((await readBody(req)).toString("utf8") || "{}");
    aiRequests.push({ path: url.pathname, body });
    if (!body.model || !body.input || !body.voice) {
      return json(res, 400, { error: { message: "model, input and voice are required", type: "invalid_request_error" } });
    }
    const hook = await nextHook(res);
    if (hook === "handled") return;
    if (hook?.mode === "malformed") return json(res, 200, { not: "audio" });
    const wav = body.response_format === "wav";
    const audio = wav ? silentWav() : silentMp3();
    res.writeHead(200, { "Content-Type": wav ? "audio/wav" : "audio/mpeg", "Content-Length": audio.length });
    return res.end(audio);
  }

  // ——— spec §7 automation webhooks ———
  if (url.pathname === "/webhook/nika-chat" || url.pathname === "/webhook/user-audio") {
    const body = JSON.parse((await readBody(req)).toString("utf8") || "{}");
    aiRequests.push({ path: url.pathname, body });
    const audio = url.pathname === "/webhook/user-audio";
    const missing = ["sessionID", "mode", "userAudio", "userId", ...(audio ? [] : ["userText"])].filter((k) => !(k in body));
    if (missing.length || (audio && !body.userAudio)) return json(res, 400, { message: `missing ${missing.join(", ") || "userAudio"}` });
    const hook = await nextHook(res);
    if (hook === "handled") return;
    if (hook?.mode === "malformed") {
      res.writeHead(200, { "Content-Type": "application/json" });
      return res.end(audio ? '{"unexpected": true}' : '[{"text": ');
    }
    const origin = `http://127.0.0.1:${opts.port}`;
    if (audio) return json(res, 200, [{ text: transcript, url: `${origin}/__ai/reply.mp3` }]);
    return json(res, 200, [{ text: replyFor([{ role: "user", content: body.userText }]).text, url: `${origin}/__ai/reply.mp3` }]);
  }

  // ——— spec §7 pronunciation game webhooks ———
  if (url.pathname === "/webhook/pronunciation-game") {
    const body = JSON.parse((await readBody(req)).toString("utf8") || "{}");
    const audio = typeof body.audio === "string" ? wavInfo(Buffer.from(body.audio, "base64")) : null;
    aiRequests.push({ path: url.pathname, body: { ...body, audio: audio ? { ...audio } : body.audio } });
    const missing = ["audio", "level", "sentence", "user_id"].filter((k) => body[k] === undefined || body[k] === null || body[k] === "");
    if (missing.length) return json(res, 400, { message: `missing ${missing.join(", ")}` });
    if (!audio || audio.sampleRate !== 16000 || audio.channels !== 1 || audio.bitsPerSample !== 16) {
      return json(res, 400, { message: "audio must be base64 16 kHz mono 16-bit WAV" });
    }
    if (await scriptedOrHook(res, url.pathname)) return;
    const words = sentenceWords(body.sentence);
    return json(res, 200, {
      overallScore: 93,
      accuracyScore: 95,
      completenessScore: 100,
      pronunciationScore: 93,
      fluencyScore: 90,
      wordDetails: words.map((Word) => ({ Word, AccuracyScore: 95, ErrorType: "None" })),
    });
  }
  if (url.pathname === "/webhook/pronunciation-game-source") {
    const body = JSON.parse((await readBody(req)).toString("utf8") || "{}");
    aiRequests.push({ path: url.pathname, body });
    if (!body.user_id || body.level === undefined) return json(res, 400, { message: "missing user_id or level" });
    if (await scriptedOrHook(res, url.pathname)) return;
    return json(res, 200, {
      Level: Number(body.level),
      Sentence: "The big dog is on the bed.",
      "Audio URL": `http://127.0.0.1:${opts.port}/__ai/reply.mp3`,
    });
  }
  if (url.pathname === "/webhook/user-level") {
    const body = JSON.parse((await readBody(req)).toString("utf8") || "{}");
    aiRequests.push({ path: url.pathname, body, headers: { "cache-control": req.headers["cache-control"] ?? null } });
    if (!body.user_id || !("no-cache" in body)) return json(res, 400, { message: "missing user_id or no-cache" });
    if (await scriptedOrHook(res, url.pathname)) return;
    return json(res, 200, [{ best_scores_map: { 1: 80, 2: 45.5 } }]);
  }

  // ——— AI test hooks ———
  if (url.pathname === "/__ai/transcription") {
    const body = JSON.parse((await readBody(req)).toString("utf8") || "{}");
    scriptedTranscription = { text: String(body.text ?? ""), ...(Array.isArray(body.words) ? { words: body.words } : {}) };
    return json(res, 200, scriptedTranscription);
  }
  if (url.pathname === "/__ai/reply") {
    const path = url.searchParams.get("path") ?? "";
    const list = scriptedReplies.get(path) ?? [];
    list.push({ status: Number(url.searchParams.get("status") ?? 200), body: (await readBody(req)).toString("utf8") });
    scriptedReplies.set(path, list);
    return json(res, 200, { queued: list.length });
  }
  if (url.pathname === "/__ai/config") {
    if (url.searchParams.has("tokenDelay")) tokenDelayMs = Number(url.searchParams.get("tokenDelay"));
    if (url.searchParams.has("transcript")) transcript = url.searchParams.get("transcript");
    return json(res, 200, { tokenDelayMs, transcript });
  }
  if (url.pathname === "/__ai/next") {
    const mode = url.searchParams.get("mode") ?? "slow";
    const delay = Number(url.searchParams.get("delay") ?? 5000);
    for (let i = 0; i < Number(url.searchParams.get("count") ?? 1); i++) aiNext.push({ mode, delay });
    return json(res, 200, { queued: aiNext.length });
  }
  if (url.pathname === "/__ai/requests") return json(res, 200, aiRequests);
  if (url.pathname === "/__ai/review" && req.method === "POST") {
    reviewScript.push((await readBody(req)).toString("utf8"));
    return json(res, 200, { queued: reviewScript.length });
  }
  if (url.pathname === "/__ai/reviews") return json(res, 200, reviewRequests);
  if (url.pathname === "/__ai/reset") {
    aiNext.length = 0;
    aiRequests.length = 0;
    reviewRequests.length = 0;
    reviewScript.length = 0;
    tokenDelayMs = Number(opts["token-delay"]);
    transcript = "I like to play football";
    scriptedTranscription = null;
    scriptedReplies.clear();
    return json(res, 200, { ok: true });
  }
  if (url.pathname === "/__ai/reply.mp3") {
    const audio = silentMp3();
    res.writeHead(200, { "Content-Type": "audio/mpeg", "Content-Length": audio.length });
    return res.end(audio);
  }
  return false;
}

const server = http.createServer(async (req, res) => {
  const url = new URL(req.url, "http://localhost");
  try {
    // ——— Resend: https://resend.com/docs/api-reference/emails/send-email ———
    if (req.method === "POST" && url.pathname === "/emails") {
      if (req.headers.authorization !== `Bearer ${opts["api-key"]}`) {
        return json(res, 401, { statusCode: 401, name: "validation_error", message: "API key is invalid" });
      }
      const body = await readJson(req);
      const to = Array.isArray(body.to) ? body.to : [body.to];
      if (!body.from || !to[0] || !body.subject || !(body.html || body.text)) {
        return json(res, 422, { statusCode: 422, name: "validation_error", message: "Missing required field" });
      }
      if (failNext > 0) {
        failNext--;
        return json(res, 500, { statusCode: 500, name: "application_error", message: "Injected failure" });
      }
      const id = crypto.randomUUID();
      emails.push({ id, from: body.from, to, subject: body.subject, html: body.html, text: body.text, headers: body.headers, at: Date.now() });
      return json(res, 200, { id });
    }

    if (req.method === "POST" && url.pathname.endsWith(AZURE_PATH)) return await handleAzure(req, res, url);
    if ((await handleGoogle(req, res, url, opts)) !== false) return;
    if ((await handleStripe(req, res, url, opts)) !== false) return;
    if ((await handleLive(req, res, url)) !== false) return;
    if (url.pathname.startsWith("/v1/") || url.pathname.startsWith("/webhook/") || url.pathname.startsWith("/__ai/")) {
      if ((await handleAi(req, res, url)) !== false) return;
    }

    // ——— inspection for tests ———
    if (req.method === "GET" && url.pathname === "/__emails") {
      const to = url.searchParams.get("to");
      return json(res, 200, to ? emails.filter((m) => m.to.includes(to)) : emails);
    }
    if (req.method === "POST" && url.pathname === "/__fail-next") {
      failNext = Number(url.searchParams.get("count") ?? 1);
      return json(res, 200, { failNext });
    }
    if (req.method === "GET" && url.pathname === "/__health") return json(res, 200, { ok: true });
    json(res, 404, { message: "not found" });
  } catch (error) {
    if (res.headersSent) return res.destroy();
    json(res, 400, { message: String(error) });
  }
});

// Keep idle connections longer than any pause inside a test: Node's 5 s default closes a socket that the
// test's fetch may be reusing at that very moment ("other side closed").
server.keepAliveTimeout = 120_000;
const realtime = attachRealtime(server, opts);
server.listen(Number(opts.port), "127.0.0.1", () => console.log(`[fake-upstream] listening on 127.0.0.1:${opts.port}`));
// Open WebSockets would hold server.close() forever.
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => (realtime.close(), server.close(() => process.exit(0))));
