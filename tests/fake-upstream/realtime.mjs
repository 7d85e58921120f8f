// OpenAI Realtime (GA, `gpt-realtime`) for the fake upstream: a WebSocket at /v1/realtime on server.mjs's own
// HTTP server, speaking the event protocol in JSON text frames (https://platform.openai.com/docs/api-reference/realtime).
// State lives in this module.
//
// Upgrade: `Authorization: Bearer <--openai-key>` (else HTTP 401) and `?model=` (else 400). Then:
//   session.created → session.update (merged, answered with session.updated; session.type "realtime" required,
//   audio formats only audio/pcm at 24 kHz).
//   input_audio_buffer.append (base64 PCM16 LE mono 24 kHz): a simple server VAD counting audio time from the
//   samples, not the clock. An append whose RMS exceeds vadThreshold (fraction of full scale) is speech: the first
//   of a turn → speech_started; silence_duration_ms of audio without speech → speech_stopped, committed, the
//   transcription (only when audio.input.transcription is configured, as the real API) and, unless
//   turn_detection.create_response is false, a response. Speech while a response plays is a barge-in: speech_started,
//   and the response is cancelled (reason turn_detected) only when turn_detection.interrupt_response is not false.
//   input_audio_buffer.commit does what speech_stopped does (a response only under turn detection, as the real API:
//   with turn_detection null the client sends response.create); input_audio_buffer.clear; response.create.
//   A response: created, output_item.added, content_part.added, then output_audio.delta (a 440 Hz tone) of replyMs
//   in chunks of chunkMs paced at `pace` × real time (0: as fast as possible) interleaved with
//   output_audio_transcript.delta word by word, then the .done events and response.done (completed).
//   response.cancel stops the deltas at once → response.done cancelled (client_cancelled).
//   conversation.item.truncate (assistant items only, audio_end_ms ≤ the audio sent) → conversation.item.truncated.
//   conversation.item.create (text messages, e.g. earlier turns as context) → conversation.item.added + .done.
//   Anything else, malformed JSON or a binary frame → an `error` event (invalid_request_error), as the real API.
//
// Test hooks (JSON answers):
//   POST /__live/next?mode=refuse|error|stall|close[&count=N]  for the next N connections: refuse → HTTP 503, no
//        socket; error → after session.update an `error` (server_error) and close 1011; stall → answers
//        session.update, then never sends anything again; close → closes 1011 when the first response starts
//   POST /__live/config  body {transcript?, reply?, replyMs?, chunkMs?, pace?, vadThreshold?, cancelLagMs?}  until reset
//        cancelLagMs: a client's response.cancel takes effect that much later (the deltas already on their way)
//   POST /__live/reset   defaults, no queued modes, the log emptied
//   GET  /__live/sessions  every connection: {id, model, connectedAt, closedAt, closeCode, sessionUpdate (the last
//        received), events: [{type, at, …fields; appends only {bytes, firstSample}}], appendedBytes,
//        responses: [{id, itemId, status, firstAudioAt, cancelledAt}], truncates: [{item_id, audio_end_ms}], cancels}
// Times are performance.timeOrigin + performance.now() (ms), so a bench on the same machine can compare clocks.
import { STATUS_CODES } from "node:http";
import { WebSocketServer } from "ws";

const RATE = 24_000;
const DEFAULTS = Object.freeze({
  transcript: "Hello Nika, how are you?",
  reply: "Hi! I'm fine, thank you. How are you today?",
  replyMs: 3000,
  chunkMs: 100,
  pace: 1,
  vadThreshold: 0.02,
  cancelLagMs: 0,
});
const MODES = ["refuse", "error", "stall", "close"];

let config = { ...DEFAULTS };
const nextModes = [];
const sessions = [];

const now = () => performance.timeOrigin + performance.now();
const newId = (prefix) => `${prefix}_${crypto.randomUUID().replaceAll("-", "").slice(0, 22)}`;
const isObject = (value) => value !== null && typeof value === "object" && !Array.isArray(value);

/** What session.created shows before any session.update (the real API's defaults). */
function defaultSession(model) {
  return {
    type: "realtime",
    object: "realtime.session",
    id: newId("sess"),
    model,
    output_modalities: ["audio"],
    instructions: "",
    tools: [],
    tool_choice: "auto",
    max_output_tokens: "inf",
    tracing: null,
    prompt: null,
    expires_at: Math.floor(Date.now() / 1000) + 3600,
    audio: {
      input: {
        format: { type: "audio/pcm", rate: RATE },
        transcription: null,
        noise_reduction: null,
        turn_detection: {
          type: "server_vad",
          threshold: 0.5,
          prefix_padding_ms: 300,
          silence_duration_ms: 500,
          idle_timeout_ms: null,
          create_response: true,
          interrupt_response: true,
        },
      },
      output: { format: { type: "audio/pcm", rate: RATE }, voice: "alloy", speed: 1 },
    },
  };
}

/** Objects merge key by key; anything else (arrays, null, scalars) replaces. */
function merge(base, patch) {
  const out = { ...base };
  for (const [key, value] of Object.entries(patch)) out[key] = isObject(value) && isObject(base[key]) ? merge(base[key], value) : value;
  return out;
}

/** Why a session.update is refused, or null. */
function sessionProblem(session) {
  if (!isObject(session)) return ["missing_required_parameter", "session", "Missing required parameter: 'session'."];
  if (session.type !== "realtime") return ["missing_required_parameter", "session.type", "Missing required parameter: 'session.type'."];
  for (const side of ["input", "output"]) {
    const format = session.audio?.[side]?.format;
    if (format !== undefined && !(format?.type === "audio/pcm" && (format.rate ?? RATE) === RATE)) {
      return ["invalid_value", `session.audio.${side}.format`, "This fake speaks only audio/pcm at 24000 Hz."];
    }
  }
  return null;
}

function rms(samples) {
  if (samples.length === 0) return 0;
  let sum = 0;
  for (const sample of samples) sum += (sample / 32768) ** 2;
  return Math.sqrt(sum / samples.length);
}

/** `ms` of a 440 Hz sine at 0.3 of full scale, continuing from sample `from` of the response. */
function tone(from, ms) {
  const count = Math.round((ms * RATE) / 1000);
  const pcm = Buffer.alloc(count * 2);
  for (let i = 0; i < count; i++) pcm.writeInt16LE(Math.round(0.3 * 32767 * Math.sin((2 * Math.PI * 440 * (from + i)) / RATE)), i * 2);
  return pcm;
}

/** How a client event is kept in the log: appends only by size and first sample (the audio would swamp it). */
function logged(event, at, pcm) {
  if (event.type !== "input_audio_buffer.append") return { ...event, at };
  return { type: event.type, at, bytes: pcm?.length ?? 0, firstSample: pcm && pcm.length >= 2 ? pcm.readInt16LE(0) : null };
}

/** One provider connection: its session, the VAD's state, the conversation's items and the active response. */
class RealtimeSession {
  constructor(ws, model, mode) {
    this.ws = ws;
    this.mode = mode;
    this.stalled = false;
    this.session = defaultSession(model);
    this.conversationId = newId("conv");
    this.items = new Map(); // id → {role, audioMs}
    this.lastItemId = null;
    this.audioMs = 0; // audio received since the connection opened
    this.bufferedMs = 0; // audio since the last commit
    this.turn = null; // {itemId, endMs} while the learner speaks
    this.silentMs = 0;
    this.response = null;
    this.log = {
      id: this.session.id,
      model,
      connectedAt: now(),
      closedAt: null,
      closeCode: null,
      sessionUpdate: null,
      events: [],
      appendedBytes: 0,
      responses: [],
      truncates: [],
      cancels: 0,
    };
    sessions.push(this.log);
    ws.on("message", (data, isBinary) => this.receive(data, isBinary));
    ws.on("close", (code) => {
      this.stopResponse();
      this.log.closedAt = now();
      this.log.closeCode = code;
    });
    this.send({ type: "session.created", session: this.session });
  }

  send(event) {
    if (this.stalled || this.ws.readyState !== this.ws.OPEN) return;
    this.ws.send(JSON.stringify({ event_id: newId("event"), ...event }));
  }

  error(code, message, { type = "invalid_request_error", param = null, eventId = null } = {}) {
    this.send({ type: "error", error: { type, code, message, param, event_id: eventId } });
  }

  receive(data, isBinary) {
    const at = now();
    let event;
    try {
      event = isBinary ? null : JSON.parse(String(data));
    } catch {
      event = null;
    }
    if (!isObject(event) || typeof event.type !== "string") {
      this.log.events.push({ type: null, at, bytes: data.length });
      return this.error("invalid_json", "The server could not parse the event: expected one JSON object with a `type`.");
    }
    const pcm = event.type === "input_audio_buffer.append" && typeof event.audio === "string" ? Buffer.from(event.audio, "base64") : null;
    this.log.events.push(logged(event, at, pcm));
    this.log.appendedBytes += pcm?.length ?? 0;
    if (this.stalled) return;
    const handle = HANDLERS[event.type];
    if (!handle) {
      return this.error("invalid_value", `Invalid value: '${event.type}'. Supported values are: ${Object.keys(HANDLERS).join(", ")}.`, {
        param: "type",
        eventId: event.event_id ?? null,
      });
    }
    handle(this, event, pcm);
  }

  updateSession(event) {
    const problem = sessionProblem(event.session);
    if (problem) {
      const [code, param, message] = problem;
      return this.error(code, message, { param, eventId: event.event_id ?? null });
    }
    this.log.sessionUpdate = event.session;
    if (this.mode === "error") {
      this.error("server_error", "The server had an error while processing your request.", { type: "server_error" });
      return this.ws.close(1011, "server_error");
    }
    this.session = merge(this.session, event.session);
    this.send({ type: "session.updated", session: this.session });
    if (this.mode === "stall") this.stalled = true;
  }

  append(event, pcm) {
    if (!pcm || pcm.length % 2 !== 0) {
      return this.error("invalid_value", "Invalid 'audio': expected base64-encoded PCM16.", { param: "audio", eventId: event.event_id ?? null });
    }
    const samples = new Int16Array(pcm.buffer.slice(pcm.byteOffset, pcm.byteOffset + pcm.length));
    const ms = (samples.length * 1000) / RATE;
    const startMs = this.audioMs;
    this.audioMs += ms;
    this.bufferedMs += ms;
    const detection = this.session.audio.input.turn_detection;
    if (detection) this.detect(detection, rms(samples) > config.vadThreshold, startMs, ms);
  }

  detect(detection, speech, startMs, ms) {
    if (speech) {
      this.silentMs = 0;
      if (!this.turn) {
        this.turn = { itemId: newId("item"), endMs: 0 };
        this.send({ type: "input_audio_buffer.speech_started", audio_start_ms: Math.round(startMs), item_id: this.turn.itemId });
        if (this.response && detection.interrupt_response !== false) this.cancel("turn_detected");
      }
      this.turn.endMs = this.audioMs;
      return;
    }
    if (!this.turn) return;
    this.silentMs += ms;
    if (this.silentMs < (detection.silence_duration_ms ?? 500)) return;
    const { itemId, endMs } = this.turn;
    this.turn = null;
    this.silentMs = 0;
    this.send({ type: "input_audio_buffer.speech_stopped", audio_end_ms: Math.round(endMs), item_id: itemId });
    this.commit(itemId, detection.create_response !== false);
  }

  manualCommit(event) {
    if (this.bufferedMs < 100) {
      return this.error(
        "input_audio_buffer_commit_empty",
        `Error committing input audio buffer: buffer too small. Expected at least 100ms of audio, but buffer only has ${this.bufferedMs.toFixed(2)}ms of audio.`,
        { eventId: event.event_id ?? null },
      );
    }
    const itemId = this.turn?.itemId ?? newId("item");
    this.turn = null;
    this.silentMs = 0;
    const detection = this.session.audio.input.turn_detection;
    this.commit(itemId, Boolean(detection) && detection.create_response !== false);
  }

  commit(itemId, respond) {
    this.bufferedMs = 0;
    this.send({ type: "input_audio_buffer.committed", previous_item_id: this.lastItemId, item_id: itemId });
    this.addItem({ id: itemId, type: "message", status: "completed", role: "user", content: [{ type: "input_audio", transcript: null }] });
    if (this.session.audio.input.transcription?.model) {
      this.send({
        type: "conversation.item.input_audio_transcription.completed",
        item_id: itemId,
        content_index: 0,
        transcript: config.transcript,
      });
    }
    if (respond) this.createResponse();
  }

  clear() {
    this.bufferedMs = 0;
    this.turn = null;
    this.silentMs = 0;
    this.send({ type: "input_audio_buffer.cleared" });
  }

  addItem(item, { announce = true } = {}) {
    const previous = this.lastItemId;
    this.items.set(item.id, { role: item.role, audioMs: 0 });
    this.lastItemId = item.id;
    if (announce) this.send({ type: "conversation.item.added", previous_item_id: previous, item: { object: "realtime.item", ...item } });
    return previous;
  }

  createItem(event) {
    const item = event.item;
    const texts = Array.isArray(item?.content) && item.content.every((part) => typeof part?.text === "string");
    if (!isObject(item) || item.type !== "message" || !["user", "assistant", "system"].includes(item.role) || !texts) {
      return this.error("invalid_value", "This fake accepts only message items with text content.", {
        param: "item",
        eventId: event.event_id ?? null,
      });
    }
    const done = { id: item.id ?? newId("item"), type: "message", status: "completed", role: item.role, content: item.content };
    const previous = this.addItem(done);
    this.send({ type: "conversation.item.done", previous_item_id: previous, item: { object: "realtime.item", ...done } });
  }

  createResponse(event) {
    if (this.response) {
      return this.error(
        "conversation_already_has_active_response",
        `Conversation already has an active response in progress: ${this.response.id}. Wait until the response is finished before creating a new one.`,
        { eventId: event?.event_id ?? null },
      );
    }
    if (this.mode === "close") return this.ws.close(1011, "server_error");
    const { reply, replyMs, chunkMs, pace } = config;
    const response = { id: newId("resp"), itemId: newId("item"), stop: null };
    response.log = { id: response.id, itemId: response.itemId, status: "in_progress", firstAudioAt: null, cancelledAt: null };
    this.log.responses.push(response.log);
    this.response = response;
    const { format, voice } = this.session.audio.output;
    this.send({
      type: "response.created",
      response: {
        object: "realtime.response",
        id: response.id,
        status: "in_progress",
        status_details: null,
        output: [],
        conversation_id: this.conversationId,
        output_modalities: ["audio"],
        audio: { output: { format, voice } },
        usage: null,
        metadata: null,
      },
    });
    const item = { id: response.itemId, type: "message", status: "in_progress", role: "assistant", content: [] };
    this.addItem(item, { announce: false });
    this.send({ type: "response.output_item.added", response_id: response.id, output_index: 0, item: { object: "realtime.item", ...item } });
    this.send({ ...this.part(response), type: "response.content_part.added", part: { type: "audio", transcript: "" } });
    this.stream(response, { words: reply.match(/\S+\s*/g) ?? [], replyMs, chunkMs, pace });
  }

  part(response) {
    return { response_id: response.id, item_id: response.itemId, output_index: 0, content_index: 0 };
  }

  /** Audio chunks at pace × real time (scheduled from the start, so timer lateness does not add up), words spread over them. */
  stream(response, { words, replyMs, chunkMs, pace }) {
    const chunks = Math.max(1, Math.ceil(replyMs / chunkMs));
    const started = now();
    let chunk = 0;
    let word = 0;
    const next = () => {
      const ms = Math.min(chunkMs, replyMs - chunk * chunkMs);
      const pcm = tone(Math.round((chunk * chunkMs * RATE) / 1000), ms);
      if (chunk === 0) response.log.firstAudioAt = now();
      this.send({ ...this.part(response), type: "response.output_audio.delta", delta: pcm.toString("base64") });
      this.items.get(response.itemId).audioMs += ms;
      chunk += 1;
      for (; word < words.length && word < Math.ceil((chunk * words.length) / chunks); word++) {
        this.send({
          response_id: response.id,
          item_id: response.itemId,
          output_index: 0,
          content_index: 0,
          type: "response.output_audio_transcript.delta",
          delta: words[word],
        });
      }
      if (chunk === chunks) return this.finish(response, words.join(""));
      if (pace === 0) {
        const handle = setImmediate(next);
        response.stop = () => clearImmediate(handle);
      } else {
        const handle = setTimeout(next, Math.max(0, started + (chunk * chunkMs) / pace - now()));
        response.stop = () => clearTimeout(handle);
      }
    };
    next();
  }

  finish(response, transcript) {
    this.response = null;
    response.log.status = "completed";
    const ids = this.part(response);
    this.send({ ...ids, type: "response.output_audio.done" });
    this.send({ ...ids, type: "response.output_audio_transcript.done", transcript });
    this.send({ ...ids, type: "response.content_part.done", part: { type: "audio", transcript } });
    const item = {
      object: "realtime.item",
      id: response.itemId,
      type: "message",
      status: "completed",
      role: "assistant",
      content: [{ type: "output_audio", transcript }],
    };
    this.send({ type: "response.output_item.done", response_id: response.id, output_index: 0, item });
    this.send({
      type: "response.done",
      response: {
        object: "realtime.response",
        id: response.id,
        status: "completed",
        status_details: null,
        output: [item],
        conversation_id: this.conversationId,
      },
    });
  }

  stopResponse() {
    this.response?.stop?.();
    const response = this.response;
    this.response = null;
    return response;
  }

  /** Ends the active response now: by the client (`client_cancelled`) or by the VAD on a barge-in (`turn_detected`). */
  cancel(reason, event) {
    const response = this.stopResponse();
    if (!response) {
      return this.error("response_cancel_not_active", "Cancellation failed: no active response found.", { eventId: event?.event_id ?? null });
    }
    response.log.status = "cancelled";
    response.log.cancelledAt = now();
    const item = { object: "realtime.item", id: response.itemId, type: "message", status: "incomplete", role: "assistant", content: [] };
    this.send({
      type: "response.done",
      response: {
        object: "realtime.response",
        id: response.id,
        status: "cancelled",
        status_details: { type: "cancelled", reason },
        output: [item],
        conversation_id: this.conversationId,
      },
    });
  }

  truncate(event) {
    const item = this.items.get(event.item_id);
    const eventId = event.event_id ?? null;
    if (item?.role !== "assistant") {
      return this.error("item_truncate_invalid_item_id", `Only assistant message items can be truncated; no such item: '${event.item_id}'.`, {
        param: "item_id",
        eventId,
      });
    }
    if (event.content_index !== 0)
      return this.error("invalid_value", "Invalid 'content_index': set it to 0.", { param: "content_index", eventId });
    const end = event.audio_end_ms;
    if (!Number.isInteger(end) || end < 0 || end > Math.round(item.audioMs)) {
      return this.error("invalid_value", `Audio content of ${Math.round(item.audioMs)}ms is already shorter than ${end}ms`, {
        param: "audio_end_ms",
        eventId,
      });
    }
    item.audioMs = end;
    this.log.truncates.push({ item_id: event.item_id, audio_end_ms: end });
    this.send({ type: "conversation.item.truncated", item_id: event.item_id, content_index: 0, audio_end_ms: end });
  }
}

const HANDLERS = {
  "session.update": (s, event) => s.updateSession(event),
  "input_audio_buffer.append": (s, event, pcm) => s.append(event, pcm),
  "input_audio_buffer.commit": (s, event) => s.manualCommit(event),
  "input_audio_buffer.clear": (s) => s.clear(),
  "conversation.item.create": (s, event) => s.createItem(event),
  "conversation.item.truncate": (s, event) => s.truncate(event),
  "response.create": (s, event) => s.createResponse(event),
  "response.cancel": (s, event) => {
    s.log.cancels += 1;
    if (config.cancelLagMs > 0) setTimeout(() => s.cancel("client_cancelled", event), config.cancelLagMs);
    else s.cancel("client_cancelled", event);
  },
};

/** Answers an upgrade with a plain HTTP error and no socket. */
function refuse(socket, status, error) {
  const body = JSON.stringify({ error: { param: null, code: null, ...error } });
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n` +
      `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

/** Serves /v1/realtime on `server`'s upgrades (every other upgrade path is 404); `close` drops the open sockets. */
export function attachRealtime(server, opts) {
  const wss = new WebSocketServer({ noServer: true });
  server.on("upgrade", (req, socket, head) => {
    const url = new URL(req.url, "http://localhost");
    if (url.pathname !== "/v1/realtime") return refuse(socket, 404, { message: "Not found", type: "invalid_request_error" });
    if (req.headers.authorization !== `Bearer ${opts["openai-key"]}`) {
      return refuse(socket, 401, { message: "Incorrect API key provided", type: "invalid_request_error", code: "invalid_api_key" });
    }
    const model = url.searchParams.get("model");
    if (!model) {
      return refuse(socket, 400, {
        message: "Missing required parameter: 'model'.",
        type: "invalid_request_error",
        code: "missing_required_parameter",
        param: "model",
      });
    }
    const mode = nextModes.shift() ?? null;
    if (mode === "refuse") return refuse(socket, 503, { message: "The server is overloaded. Please try again later.", type: "server_error" });
    wss.handleUpgrade(req, socket, head, (ws) => new RealtimeSession(ws, model, mode));
  });
  return { close: () => wss.clients.forEach((ws) => ws.terminate()) };
}

async function readJson(req) {
  let body = "";
  for await (const chunk of req) body += chunk;
  return body ? JSON.parse(body) : {};
}

function json(res, status, body) {
  res.writeHead(status, { "Content-Type": "application/json" });
  res.end(JSON.stringify(body));
}

/** Keys of a /__live/config body that are not a known setting of the right type. */
function badConfig(body) {
  if (!isObject(body)) return ["(body)"];
  return Object.entries(body)
    .filter(([key, value]) => {
      if (key === "transcript" || key === "reply") return typeof value !== "string";
      if (key === "pace" || key === "vadThreshold") return !(typeof value === "number" && value >= 0);
      if (key === "replyMs" || key === "chunkMs") return !(Number.isInteger(value) && value > 0);
      if (key === "cancelLagMs") return !(Number.isInteger(value) && value >= 0);
      return true;
    })
    .map(([key]) => key);
}

/** The /__live/ test hooks; false for any other path. */
export async function handleLive(req, res, url) {
  if (!url.pathname.startsWith("/__live/")) return false;
  if (req.method === "POST" && url.pathname === "/__live/next") {
    const mode = url.searchParams.get("mode");
    const count = Number(url.searchParams.get("count") ?? 1);
    if (!MODES.includes(mode) || !Number.isInteger(count) || count < 1)
      return json(res, 400, { message: `mode must be one of ${MODES.join(", ")}; count a positive integer` });
    for (let i = 0; i < count; i++) nextModes.push(mode);
    return json(res, 200, { queued: [...nextModes] });
  }
  if (req.method === "POST" && url.pathname === "/__live/config") {
    const body = await readJson(req);
    const bad = badConfig(body);
    if (bad.length) return json(res, 400, { message: `invalid config: ${bad.join(", ")}` });
    config = { ...config, ...body };
    return json(res, 200, config);
  }
  if (req.method === "POST" && url.pathname === "/__live/reset") {
    config = { ...DEFAULTS };
    nextModes.length = 0;
    sessions.length = 0;
    return json(res, 200, config);
  }
  if (req.method === "GET" && url.pathname === "/__live/sessions") return json(res, 200, sessions);
  return json(res, 404, { message: "not found" });
}
