#!/usr/bin/env node
// @ts-check
// Conversa ao vivo (issue 36): the latency the relay (the LiveConversation Durable Object) ADDS to a live spoken
// conversation, and its CPU. The bench talks to the app as the browser island does — a WebSocket to
// /resources/live/<conversation> with the session cookie and the app's Origin, 40 ms PCM16 frames at real time, JSON and
// binary frames back — while the fake upstream plays the realtime provider (tests/fake-upstream/realtime.mjs) and logs
// when it sent and received each thing, on a clock this process can compare with its own (performance.timeOrigin +
// performance.now(), same machine). Each turn: 600 ms of speech, silence until Nika's reply (3 s of audio at real
// time) has arrived, a pause, the next turn. Measured per turn, each way:
//   provider → browser: the fake's first audio delta of a reply → the first binary frame of that item here;
//   browser → provider: the send of a turn's last speech frame here → the fake's receipt of that frame (each frame's
//   first sample carries a mark the fake logs);
// median and p95 (goal ≤ 15 ms at the median each way), and workerd's CPU per minute of audio relayed (both ways).
// For scale, the same turns straight to the fake (no app: one loopback WebSocket hop) are timed first.
//   node bench/live.mjs [--turns 50] [--smoke]
// --smoke (bench/smoke.mjs): two turns with a 1 s reply, no warm-up, the goal reported but not enforced.
// Its own ports (app 8781, database 25381, fake upstream 4023). Serves the existing ./build (never rebuilds it).
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import WebSocket from "ws";
import { benchDb, cpuSnapshot, cpuSpent, LEARNER, percentile, signInAsLearner, startApp, writeResults } from "./lib.mjs";

const { values: opts } = parseArgs({
  options: {
    turns: { type: "string", default: "50" },
    smoke: { type: "boolean", default: false },
  },
});
const TURNS = opts.smoke ? 2 : Math.max(3, Math.min(500, Number(opts.turns) || 50));
/** Turns before the measured ones, to warm the object, the isolate's JIT and the database; not counted. */
const WARMUP = opts.smoke ? 0 : 2;
const TARGET_MS = 15;
const SPEECH_MS = 600;
const REPLY_MS = opts.smoke ? 1000 : 3000;
/** Silence after Nika's reply before the learner speaks again (so the next turn is not a barge-in). */
const PAUSE_MS = 300;
const WAIT_MS = 20_000;
const MODEL = "fake-realtime";

if (!existsSync("build/server/index.js")) {
  console.error("./build does not exist (build/server/index.js missing): this bench serves the existing build and never builds it.");
  process.exit(1);
}

const app = await startApp({ name: "live", port: "8781", pgPort: "25381", upstreamPort: "4023" });
const { base } = app;
const upstream = /** @type {string} */ (app.upstream);
const now = () => performance.timeOrigin + performance.now();
const sleep = (/** @type {number} */ ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** @typedef {{ itemId: string, at: number }} FirstAudio */
/** @typedef {{ mark: number, sentAt: number }} SentFrame */
/** @typedef {{ type: string, at: number, firstSample?: number }} LoggedEvent */
/** @typedef {{ itemId: string, status: string, firstAudioAt: number | null }} LoggedResponse */
/** @typedef {{ model: string, events: LoggedEvent[], responses: LoggedResponse[] }} LoggedSession */

/** The fake provider's hooks. */
const fake = {
  /**
   * @param {string} path
   * @param {unknown} [body]
   */
  async post(path, body) {
    const response = await fetch(`${upstream}${path}`, { method: "POST", body: body === undefined ? undefined : JSON.stringify(body) });
    if (!response.ok) throw new Error(`${path} answered ${response.status}: ${await response.text()}`);
  },
  /** @returns {Promise<LoggedSession[]>} */
  async sessions() {
    return (await fetch(`${upstream}/__live/sessions`)).json();
  },
};

/**
 * What a connection reports, in order, for the turn loop to wait on: the first audio of each of Nika's items, the end
 * of each reply, and the session's end (which fails every wait).
 */
class Inbox {
  /** @type {{ kind: string, itemId?: string, at?: number }[]} */
  records = [];
  /** @type {Set<() => void>} */
  listeners = new Set();
  /** @type {string | null} */
  ended = null;

  /** @param {{ kind: string, itemId?: string, at?: number }} record */
  push(record) {
    this.records.push(record);
    for (const listener of [...this.listeners]) listener();
  }

  /** @param {string} why */
  end(why) {
    this.ended ??= why;
    for (const listener of [...this.listeners]) listener();
  }

  /**
   * The oldest record of `kind` not taken yet (for `itemId`, when given), taken.
   * @param {string} kind
   * @param {string} [itemId]
   * @returns {Promise<{ kind: string, itemId?: string, at?: number }>}
   */
  take(kind, itemId) {
    return new Promise((resolve, reject) => {
      const check = () => {
        const index = this.records.findIndex((r) => r.kind === kind && (itemId === undefined || r.itemId === itemId));
        if (index >= 0) {
          done();
          resolve(this.records.splice(index, 1)[0]);
        } else if (this.ended) {
          done();
          reject(new Error(`the session ended while waiting for ${kind}: ${this.ended}`));
        }
      };
      const timer = setTimeout(() => {
        done();
        reject(new Error(`no ${kind} within ${WAIT_MS} ms`));
      }, WAIT_MS);
      const done = () => {
        clearTimeout(timer);
        this.listeners.delete(check);
      };
      this.listeners.add(check);
      check();
    });
  }
}

/**
 * Opens a `ws` WebSocket; rejects with the HTTP answer when the upgrade is refused.
 * @param {string} url
 * @param {Record<string, string>} headers
 * @returns {Promise<WebSocket>}
 */
function connect(url, headers) {
  const ws = new WebSocket(url, { headers });
  return new Promise((resolve, reject) => {
    ws.once("open", () => resolve(ws));
    ws.once("unexpected-response", (_request, response) => {
      let body = "";
      response.on("data", (chunk) => (body += chunk));
      response.on("end", () => reject(new Error(`${url} refused the upgrade: ${response.statusCode} ${body}`)));
    });
    ws.once("error", reject);
  });
}

/**
 * The learner's microphone as the browser island sends it: one frame of `frameMs` every `frameMs` at real time
 * (scheduled from the start, so a late timer sends its backlog at once, as an AudioWorklet's queue would), silence
 * unless speaking. The first sample of every frame is a mark 1…8000 — small enough that a silent frame stays below the
 * fake's VAD threshold — by which the fake's log tells when that frame arrived.
 * @param {(pcm: Buffer) => void} send
 * @param {{ rate: number, frameMs: number }} format
 */
function microphone(send, { rate, frameMs }) {
  const samples = (rate * frameMs) / 1000;
  const silence = Buffer.alloc(samples * 2);
  const speech = Buffer.alloc(samples * 2);
  for (let i = 0; i < samples; i++) speech.writeInt16LE(Math.round(0.25 * 32767 * Math.sin((2 * Math.PI * 300 * i) / rate)), i * 2);
  const started = performance.now();
  let frames = 0;
  let speechLeft = 0;
  /** @type {(frame: SentFrame) => void} */
  let onLastSpeech = () => {};
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let timer;
  const tick = () => {
    const frame = Buffer.from(speechLeft > 0 ? speech : silence);
    const mark = 1 + (frames % 8000);
    frame.writeInt16LE(mark, 0);
    const sentAt = now();
    send(frame);
    frames++;
    if (speechLeft > 0 && --speechLeft === 0) onLastSpeech({ mark, sentAt });
    timer = setTimeout(tick, Math.max(0, started + frames * frameMs - performance.now()));
  };
  tick();
  return {
    /** Speaks `ms` of audio from the next frame on; resolves with its last frame once sent. */
    speak(/** @type {number} */ ms) {
      speechLeft = Math.round(ms / frameMs);
      return /** @type {Promise<SentFrame>} */ (new Promise((resolve) => (onLastSpeech = resolve)));
    },
    stop() {
      clearTimeout(timer);
      return frames * frameMs;
    },
  };
}

/**
 * `turns` turns over `line`: speak, wait for the first audio of Nika's reply and for its end, pause.
 * @param {{ inbox: Inbox, send: (pcm: Buffer) => void, firstAudio?: (itemId: string) => void }} line
 * @param {number} turns
 * @param {{ rate: number, frameMs: number }} format
 */
async function converse(line, turns, format) {
  const mic = microphone(line.send, format);
  /** @type {SentFrame[]} */
  const sent = [];
  /** @type {FirstAudio[]} */
  const received = [];
  let micMs = 0;
  try {
    for (let turn = 0; turn < turns; turn++) {
      sent.push(await mic.speak(SPEECH_MS));
      const first = await line.inbox.take("first-audio");
      const itemId = /** @type {string} */ (first.itemId);
      received.push({ itemId, at: /** @type {number} */ (first.at) });
      line.firstAudio?.(itemId);
      await line.inbox.take("reply-done", itemId);
      await sleep(PAUSE_MS);
    }
  } catch (error) {
    throw new Error(`turn ${sent.length} of ${turns}: ${error instanceof Error ? error.message : error}`);
  } finally {
    micMs = mic.stop();
  }
  return { sent, received, micMs };
}

/**
 * Per turn, each way, from the fake's log of the one session of a phase: provider → here, and here → provider.
 * @param {LoggedSession} session
 * @param {{ sent: SentFrame[], received: FirstAudio[] }} run
 * @param {number} skip the warm-up turns
 */
function latencies(session, { sent, received }, skip) {
  const appends = session.events.filter((e) => e.type === "input_audio_buffer.append");
  const up = sent.slice(skip).map(({ mark, sentAt }) => {
    const arrival = appends.find((e) => e.firstSample === mark && e.at > sentAt - 50 && e.at < sentAt + WAIT_MS);
    if (!arrival) throw new Error(`the frame marked ${mark} never reached the provider`);
    return arrival.at - sentAt;
  });
  const down = received.slice(skip).map(({ itemId, at }) => {
    const response = session.responses.find((r) => r.itemId === itemId);
    if (!response?.firstAudioAt) throw new Error(`no response of the provider has item ${itemId}`);
    return at - response.firstAudioAt;
  });
  return { down: summary(down), up: summary(up) };
}

/** @param {number[]} values */
function summary(values) {
  return {
    median: percentile(values, 0.5),
    p95: percentile(values, 0.95),
    min: Math.min(...values),
    max: Math.max(...values),
    n: values.length,
  };
}

/**
 * The processes under `root` (its children, theirs…), from /proc: this app's workerd, not another app's on the machine.
 * @param {number} root
 */
function descendants(root) {
  /** @type {Map<number, number[]>} */
  const children = new Map();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const parent = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      children.set(parent, [...(children.get(parent) ?? []), Number(entry)]);
    } catch {
      // the process ended meanwhile
    }
  }
  /** @type {Set<number>} */
  const found = new Set();
  const queue = [root];
  while (queue.length) {
    for (const child of children.get(/** @type {number} */ (queue.shift())) ?? []) {
      found.add(child);
      queue.push(child);
    }
  }
  return found;
}

/** The one session the fake logged since its last reset. */
async function onlySession() {
  const sessions = await fake.sessions();
  if (sessions.length !== 1) throw new Error(`the fake provider logged ${sessions.length} sessions, expected 1`);
  return sessions[0];
}

let failed = false;
try {
  // Credits for every minute; the protocol's constants come from the app itself (TypeScript, through tsx).
  const { pool } = await benchDb(app.vars);
  try {
    const updated = await pool.query("UPDATE users SET monthly_credits = 100000 WHERE email = $1", [LEARNER.email]);
    if (updated.rowCount !== 1) throw new Error(`learner ${LEARNER.email} not found in the seed`);
  } finally {
    await pool.end();
  }
  const protocol = await import("../app/features/live/protocol.ts");
  const format = { rate: protocol.LIVE_SAMPLE_RATE, frameMs: protocol.LIVE_FRAME_MS };
  await fake.post("/__live/reset");
  await fake.post("/__live/config", { replyMs: REPLY_MS });

  // 1. For scale: the same turns straight to the fake provider, as the relay talks to it (no app in between).
  const direct = await connect(`${upstream.replace(/^http/, "ws")}/v1/realtime?model=${MODEL}`, { Authorization: "Bearer test-openai-key" });
  const directInbox = new Inbox();
  /** @type {Set<string>} */
  const heard = new Set();
  direct.on("message", (data) => {
    const at = now();
    const event = JSON.parse(String(data));
    if (event.type === "response.output_audio.delta" && !heard.has(event.item_id)) {
      heard.add(event.item_id);
      directInbox.push({ kind: "first-audio", itemId: event.item_id, at });
    } else if (event.type === "response.done") directInbox.push({ kind: "reply-done", itemId: event.response.output?.[0]?.id });
    else if (event.type === "session.updated") directInbox.push({ kind: "ready" });
    else if (event.type === "error") directInbox.end(`${event.error.code}: ${event.error.message}`);
  });
  direct.send(
    JSON.stringify({
      type: "session.update",
      session: {
        type: "realtime",
        audio: {
          input: { transcription: { model: "gpt-4o-mini-transcribe" }, turn_detection: { type: "server_vad", interrupt_response: false } },
        },
      },
    }),
  );
  await directInbox.take("ready");
  const directRun = await converse(
    {
      inbox: directInbox,
      send: (pcm) => direct.send(JSON.stringify({ type: "input_audio_buffer.append", audio: pcm.toString("base64") })),
      // the reply's first audio is all this phase needs: stop it there
      firstAudio: () => direct.send(JSON.stringify({ type: "response.cancel" })),
    },
    WARMUP + TURNS,
    format,
  );
  direct.close();
  const directFigures = latencies(await onlySession(), directRun, WARMUP);
  await fake.post("/__live/reset");
  await fake.post("/__live/config", { replyMs: REPLY_MS });

  // 2. Through the app, as the browser island: sign in, a conversation, its live socket.
  const cookie = await signInAsLearner(base);
  const page = await fetch(`${base}/chat-with-nika/english`, { redirect: "manual", headers: { Cookie: cookie } });
  await page.arrayBuffer();
  const conversationId = new URL(page.headers.get("location") ?? "", base).searchParams.get("c");
  if (page.status !== 302 || !conversationId) throw new Error(`/chat-with-nika/english answered ${page.status} (no ?c=)`);
  const live = await connect(`${base.replace(/^http/, "ws")}${protocol.liveSocketPath(conversationId)}`, { Cookie: cookie, Origin: base });
  const inbox = new Inbox();
  /** @type {string | null} */
  let item = null;
  /** @type {Set<string>} */
  const started = new Set();
  let nikaBytes = 0;
  live.on("message", (data, isBinary) => {
    const at = now();
    if (isBinary) {
      nikaBytes += /** @type {Buffer} */ (data).length;
      if (item && !started.has(item)) {
        started.add(item);
        inbox.push({ kind: "first-audio", itemId: item, at });
      }
      return;
    }
    /** @type {import("../app/features/live/protocol.ts").ServerMessage} */
    const message = JSON.parse(String(data));
    if (message.type === "ready") inbox.push({ kind: "ready" });
    else if (message.type === "nika_item") item = message.itemId;
    else if (message.type === "caption" && message.speaker === "nika" && message.final !== undefined)
      inbox.push({ kind: "reply-done", itemId: message.itemId });
    else if (message.type === "ended") inbox.end(`${message.reason}: ${message.message}`);
  });
  live.on("close", (code) => inbox.end(`closed ${code}`));
  await inbox.take("ready");
  // The app's processes: started by this bench, or by bench/smoke.mjs next to it.
  const ours = descendants(app.shared ? process.ppid : process.pid);
  const snapshot = () => new Map([...cpuSnapshot()].filter(([pid]) => ours.has(pid)));
  const cpuBefore = snapshot();
  const wallStarted = performance.now();
  const appRun = await converse({ inbox, send: (pcm) => live.send(pcm) }, WARMUP + TURNS, format);
  const wallMs = performance.now() - wallStarted;
  const cpu = cpuSpent(cpuBefore, snapshot(), (cmdline) => (cmdline.includes("workerd") ? "workerd" : undefined));
  const closed = new Promise((resolve) => live.once("close", resolve));
  live.send(JSON.stringify({ type: "end" }));
  await closed;
  const session = await onlySession();
  const appFigures = latencies(session, appRun, WARMUP);
  const cancelled = session.responses.filter((r) => r.status !== "completed").length;
  await fake.post("/__live/reset");

  // 3. Figures.
  const nikaMs = (nikaBytes / 2 / format.rate) * 1000;
  const audioMinutes = (appRun.micMs + nikaMs) / 60_000;
  const workerdMs = cpu.workerd ?? 0;
  const ms = (/** @type {number} */ value) => `${value.toFixed(1)} ms`;
  const line = (/** @type {string} */ label, /** @type {ReturnType<typeof summary>} */ s) =>
    `${label.padEnd(38)} median ${ms(s.median).padStart(8)}   p95 ${ms(s.p95).padStart(8)}   (min ${ms(s.min)}, max ${ms(s.max)}, n ${s.n})`;
  console.log(`Conversa ao vivo, ${TURNS} turns (after ${WARMUP} of warm-up), ${SPEECH_MS} ms spoken, ${REPLY_MS} ms replies`);
  console.log(line("provider → browser, through the app", appFigures.down));
  console.log(line("browser → provider, through the app", appFigures.up));
  console.log(line("provider → client, direct (one hop)", directFigures.down));
  console.log(line("client → provider, direct (one hop)", directFigures.up));
  const met = appFigures.down.median <= TARGET_MS && appFigures.up.median <= TARGET_MS;
  console.log(`goal ≤ ${TARGET_MS} ms at the median each way: ${met ? "met" : "missed"}`);
  console.log(
    `workerd CPU ${ms(workerdMs / audioMinutes || 0)} per minute of audio relayed ` +
      `(${(appRun.micMs / 1000).toFixed(0)} s in + ${(nikaMs / 1000).toFixed(0)} s out in ${(wallMs / 1000).toFixed(0)} s; ` +
      `${ms(workerdMs / (wallMs / 60_000))} per minute of session)`,
  );
  if (cancelled) console.log(`note: ${cancelled} of Nika's replies did not complete (the relay cancelled them)`);
  writeResults(
    "live",
    {
      turns: TURNS,
      warmup: WARMUP,
      speechMs: SPEECH_MS,
      replyMs: REPLY_MS,
      targetMs: TARGET_MS,
      app: appFigures,
      direct: directFigures,
      workerdCpuMs: workerdMs,
      audioSeconds: { in: appRun.micMs / 1000, out: nikaMs / 1000 },
      sessionSeconds: wallMs / 1000,
      workerdCpuMsPerAudioMinute: workerdMs / audioMinutes,
      cancelledReplies: cancelled,
    },
    opts.smoke,
  );
} catch (error) {
  failed = true;
  console.error(error);
  // what the provider saw of each connection, to tell which side gave up
  const seen = await fake.sessions().catch(() => []);
  for (const {
    model,
    connectedAt,
    closedAt,
    closeCode,
    events,
    responses,
  } of /** @type {(LoggedSession & { connectedAt: number, closedAt: number | null, closeCode: number | null })[]} */ (seen)) {
    const lasted = ((closedAt ?? now()) - connectedAt) / 1000;
    console.error(
      `provider session ${model}: ${lasted.toFixed(1)} s, close code ${closeCode}, ${events.length} events received, ${responses.length} responses`,
    );
  }
} finally {
  await app.stop();
}
process.exit(failed ? 1 : 0);
