// One local process that stands in for the outside services in end-to-end tests, speaking their real
// HTTP protocols: the Resend e-mail API (POST /emails); an OpenAI-compatible AI API (POST /v1/chat/completions,
// /v1/audio/transcriptions, /v1/audio/speech); the spec §7 automation webhooks (POST /webhook/nika-chat,
// /webhook/user-audio). Later issues add OAuth and payments here. Test-only hooks live under /__.
//
//   node tests/fake-upstream/server.mjs [--port 4010] [--api-key test-key] [--openai-key test-openai-key] [--token-delay MS]
//
// AI test hooks:
//   POST /__ai/config?tokenDelay=MS&transcript=TEXT   per-token delay of chat streams (also header x-fake-token-delay)
//   POST /__ai/next?mode=slow|stall|malformed|error[&delay=MS][&count=N]
//        slow: wait before answering; stall: stream one token then hang; malformed: broken SSE/JSON; error: HTTP 500
//   GET  /__ai/requests                               what the AI endpoints received (newest last)
import http from "node:http";
import { parseArgs } from "node:util";

const { values: opts } = parseArgs({
  options: {
    port: { type: "string", default: "4010" },
    "api-key": { type: "string", default: "test-mail-key" },
    "openai-key": { type: "string", default: "test-openai-key" },
    // default per-token delay of chat streams (ms), so a browser can see a reply arrive in pieces
    "token-delay": { type: "string", default: "0" },
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

async function handleAi(req, res, url) {
  // ——— OpenAI: https://platform.openai.com/docs/api-reference/chat/create ———
  if (url.pathname === "/v1/chat/completions") {
    if (!openAiAuth(req, res)) return;
    const body = JSON.parse((await readBody(req)).toString("utf8") || "{}");
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
    const words = verbose && fields["timestamp_granularities[]"].includes("word") ? transcriptWords(transcript) : undefined;
    return json(
      res,
      200,
      verbose
        ? { task: "transcribe", language: "english", duration: words?.at(-1)?.end ?? 1, text: transcript, ...(words ? { words } : {}) }
        : { text: transcript },
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

  // ——— AI test hooks ———
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
  if (url.pathname === "/__ai/reset") {
    aiNext.length = 0;
    aiRequests.length = 0;
    tokenDelayMs = Number(opts["token-delay"]);
    transcript = "I like to play football";
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
      emails.push({ id, from: body.from, to, subject: body.subject, html: body.html, text: body.text, at: Date.now() });
      return json(res, 200, { id });
    }

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

server.listen(Number(opts.port), "127.0.0.1", () => console.log(`[fake-upstream] listening on 127.0.0.1:${opts.port}`));
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => server.close(() => process.exit(0)));
