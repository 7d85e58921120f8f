// Conversa ao vivo end to end below the browser: the LiveConversation Durable Object runs in workerd (Miniflare,
// bundled from the app's sources), talks to the embedded database over TCP (scripts/db-server.mjs, migrated) and to
// the fake OpenAI Realtime provider (tests/fake-upstream/realtime.mjs) over a real WebSocket. The test plays the
// browser: PCM16 frames in, JSON and audio out. A minute is shortened with LIVE_MINUTE_MS (honoured under
// APP_ENV=test only), every limit in proportion. The endpoint's gates (cookie, origin, flag, owner, credits) are
// checked against PGlite in-process at the end.
import { fork, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/node-postgres";
import { migrate } from "drizzle-orm/node-postgres/migrator";
import type { Miniflare } from "miniflare";
import pg from "pg";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { chatConversations } from "~/features/conversation/tables";
import { connectLiveSession } from "~/features/live/connect.server";
import { LIVE_CLOSE, LIVE_FRAME_MS, LIVE_SAMPLE_RATE, type ServerMessage } from "~/features/live/protocol";
import { PROVIDER_CONNECT_TIMEOUT_MS } from "~/features/live/provider.server";
import { createSession } from "~/server/auth.server";
import { creditPeriod } from "~/server/credits.server";
import type { Database } from "~/server/db.server";
import { appConfig, users } from "~/server/schema";
import { freePort, startFakeUpstream } from "./fake-upstream";
import { contextFor, createTestDb } from "./harness";
import { startTestWorker } from "./workerd";

const TEST_WORKER = `
export { LiveConversation } from "./app/features/live/relay.server";
export default {
  async fetch(request, env) {
    const url = new URL(request.url);
    const user = url.searchParams.get("user");
    const object = env.LIVE_CONVERSATIONS.get(env.LIVE_CONVERSATIONS.idFromName(user));
    if (url.pathname === "/close-user") return Response.json(await object.closeUser(user));
    // What connectLiveSession forwards once its checks pass.
    const headers = { Upgrade: "websocket", "X-Nika-User": user, "X-Nika-Conversation": url.searchParams.get("conversation") };
    if (url.searchParams.get("resume")) headers["X-Nika-Resume"] = url.searchParams.get("resume");
    return object.fetch("https://live-conversation/connect", { headers });
  },
};
`;

// ——— the world: database server, fake provider, two workers (a 2.4 s minute, and a 0.3 s one for the limits) ———

let dbServer: ChildProcess;
let dataDir: string;
let pool: pg.Pool;
let db: Database;
let fake: { url: string; stop: () => void };
let worker: Miniflare;
let fastWorker: Miniflare;
const MINUTE_MS = 2400;
const FAST_MINUTE_MS = 600;

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), "nika-live-"));
  const pgPort = await freePort();
  dbServer = fork("scripts/db-server.mjs", ["--data", dataDir, "--pg-port", String(pgPort)], { stdio: ["ignore", "ignore", "inherit", "ipc"] });
  await new Promise<void>((resolve, reject) => {
    dbServer.once("message", () => resolve());
    dbServer.once("exit", (code) => reject(new Error(`db-server exited ${code}`)));
  });
  const databaseUrl = `postgres://postgres:postgres@127.0.0.1:${pgPort}/postgres`;
  pool = new pg.Pool({ connectionString: databaseUrl, max: 2 });
  db = drizzle(pool) as unknown as Database;
  await migrate(db as never, { migrationsFolder: "migrations" });
  fake = await startFakeUpstream(await freePort());
  const bindings = (minuteMs: number) => ({
    APP_ENV: "test",
    DATABASE_URL: databaseUrl,
    SESSION_SECRET: "test-secret",
    OPENAI_API_KEY: "test-openai-key",
    // The chat provider reviews each finished learner turn for "Meu caderno".
    OPENAI_BASE_URL: `${fake.url}/v1`,
    OPENAI_REALTIME_URL: `${fake.url.replace("http:", "ws:")}/v1/realtime`,
    OPENAI_REALTIME_MODEL: "fake-realtime",
    OPENAI_REALTIME_VOICE: "marin",
    LIVE_MINUTE_MS: String(minuteMs),
  });
  const durableObjects = { LIVE_CONVERSATIONS: { className: "LiveConversation", useSQLite: true } };
  [worker, fastWorker] = await Promise.all([
    startTestWorker(TEST_WORKER, { bindings: bindings(MINUTE_MS), durableObjects }),
    startTestWorker(TEST_WORKER, { bindings: bindings(FAST_MINUTE_MS), durableObjects }),
  ]);
}, 120_000);

afterAll(async () => {
  await Promise.all([worker?.dispose(), fastWorker?.dispose()]);
  await pool?.end();
  fake?.stop();
  dbServer?.kill("SIGTERM");
  rmSync(dataDir, { recursive: true, force: true });
});

beforeEach(async () => {
  await fetch(`${fake.url}/__live/reset`, { method: "POST" });
});

const configureFake = (config: Record<string, unknown>) =>
  fetch(`${fake.url}/__live/config`, { method: "POST", body: JSON.stringify(config), headers: { "Content-Type": "application/json" } });
const nextProviderFailure = (mode: "refuse" | "error" | "stall" | "close") => fetch(`${fake.url}/__live/next?mode=${mode}`, { method: "POST" });

type FakeSession = {
  /** The `session` of the last session.update the provider received. */
  sessionUpdate: { instructions: string; audio: { input: { turn_detection: { interrupt_response: boolean } }; output: { voice: string } } };
  cancels: number;
  truncates: { item_id: string; audio_end_ms: number }[];
  responses: { itemId: string; status: string }[];
  closeCode: number | null;
};
const providerSessions = async (): Promise<FakeSession[]> => (await fetch(`${fake.url}/__live/sessions`)).json();

let learners = 0;
async function learner(credits = 10, mode: "english" | "portuguese" | "english-test" = "english") {
  const n = ++learners;
  const [user] = await db
    .insert(users)
    .values({ name: `Aluna ${n}`, email: `live${n}@example.com`, monthlyCredits: credits })
    .returning();
  const [conversation] = await db.insert(chatConversations).values({ userId: user!.id, mode }).returning();
  return { userId: user!.id, conversationId: conversation!.id };
}

const balanceOf = async (userId: string) =>
  (await db.select({ credits: users.monthlyCredits }).from(users).where(eq(users.id, userId)))[0]!.credits;
const rows = async <T>(query: ReturnType<typeof sql>) => (await db.execute(query)).rows as T[];
const minutesOf = (userId: string) =>
  rows<{ minute: number; status: string; credits: number }>(
    sql`select minute, status, credits from live_minutes where user_id = ${userId} order by minute`,
  );
const messagesOf = (conversationId: string) =>
  rows<{ role: string; text: string; transcription: string | null }>(
    sql`select role, text, transcription from chat_messages where conversation_id = ${conversationId} order by created_at, id`,
  );
/** The live minutes counted as the learner's activity (ref `session:minute`, with their points). */
const liveActivitiesOf = (userId: string) =>
  rows<{ ref: string; points: number }>(
    sql`select a.ref, a.points from activities a where a.user_id = ${userId} and a.kind = 'live_minute' order by a.created_at, a.ref`,
  );
const sessionIdOf = async (userId: string) => (await rows<{ id: string }>(sql`select id from live_sessions where user_id = ${userId}`))[0]!.id;
const ledgerOf = (userId: string) =>
  rows<{ delta: number; reason: string }>(sql`select delta, reason from credit_ledger where user_id = ${userId} order by created_at, delta`);

// ——— the browser's side ———

type Browser = {
  messages: ServerMessage[];
  /** When each message arrived (Date.now()), in the same order. */
  arrivedAt: number[];
  audioBytes: number;
  closed: Promise<{ code: number; reason: string }>;
  socket: WebSocket;
  of: <T extends ServerMessage["type"]>(type: T) => Extract<ServerMessage, { type: T }>[];
};

async function openBrowser(
  target: { userId: string; conversationId: string },
  options: { resume?: string; fast?: boolean } = {},
): Promise<Browser> {
  const query = new URLSearchParams({
    user: target.userId,
    conversation: target.conversationId,
    ...(options.resume ? { resume: options.resume } : {}),
  });
  const response = await (options.fast ? fastWorker : worker).dispatchFetch(`http://test/connect?${query}`, {
    headers: { Upgrade: "websocket" },
  });
  expect(response.status).toBe(101);
  const socket = response.webSocket! as unknown as WebSocket & { accept(): void };
  const browser: Browser = {
    messages: [],
    arrivedAt: [],
    audioBytes: 0,
    socket,
    closed: new Promise((resolve) => socket.addEventListener("close", (event) => resolve({ code: event.code, reason: event.reason }))),
    of: (type) => browser.messages.filter((message) => message.type === type) as never,
  };
  socket.addEventListener("message", (event) => {
    if (typeof event.data === "string") {
      browser.messages.push(JSON.parse(event.data));
      browser.arrivedAt.push(Date.now());
    } else browser.audioBytes += (event.data as ArrayBuffer).byteLength;
  });
  socket.accept();
  return browser;
}

/** One 40 ms frame of PCM16 at 24 kHz: a 440 Hz tone (speech to the fake's VAD) or silence. */
function frame(loud: boolean): ArrayBuffer {
  const samples = new Int16Array((LIVE_SAMPLE_RATE * LIVE_FRAME_MS) / 1000);
  if (loud) for (let i = 0; i < samples.length; i++) samples[i] = Math.round(Math.sin((2 * Math.PI * 440 * i) / LIVE_SAMPLE_RATE) * 12_000);
  return samples.buffer;
}
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/**
 * Takes the database's turn (the server runs one transaction at a time), so the relay's next query waits until the
 * returned release: a way to land an event while the relay is mid-write.
 */
async function holdDatabase(): Promise<() => Promise<void>> {
  const client = await pool.connect();
  await client.query("begin");
  await client.query("select 1");
  return async () => {
    await client.query("commit");
    client.release();
  };
}

/** Sends `speechMs` of tone then `silenceMs` of silence, a frame every 25 ms (1.6 × real time, within the rate limit). */
async function speak(browser: Browser, speechMs: number, silenceMs = 800) {
  for (let ms = 0; ms < speechMs + silenceMs; ms += LIVE_FRAME_MS) {
    if (browser.socket.readyState !== 1 /* OPEN */) return;
    browser.socket.send(frame(ms < speechMs));
    await pause(25);
  }
}

/** Waits generously: a slow or busy machine must not fail a test that only waits for the relay. */
const eventually = <T>(check: () => T | Promise<T>) => vi.waitFor(check, { timeout: 15_000, interval: 50 });
const ready = (browser: Browser) => eventually(() => expect(browser.of("ready")).toHaveLength(1));

// ——— the relay ———

describe("LiveConversation: a spoken turn", () => {
  it("relays the learner's speech and Nika's audio, captions both, stores both turns and charges the first minute", async () => {
    const target = await learner(10);
    await configureFake({ replyMs: 600, pace: 0 });
    const browser = await openBrowser(target);
    await ready(browser);
    expect(browser.of("minute")).toEqual([{ type: "minute", minute: 1, balance: 9, lastMinute: false }]);

    await speak(browser, 600);
    await eventually(() => expect(browser.of("caption").some((c) => c.speaker === "nika" && c.final)).toBe(true));
    expect(browser.of("speech_started").length).toBeGreaterThanOrEqual(1);
    expect(browser.of("caption")).toContainEqual(expect.objectContaining({ speaker: "learner", final: "Hello Nika, how are you?" }));
    expect(browser.of("nika_item")).toHaveLength(1);
    // 600 ms of PCM16 at 24 kHz, every byte relayed.
    expect(browser.audioBytes).toBe((LIVE_SAMPLE_RATE * 2 * 600) / 1000);

    browser.socket.send(JSON.stringify({ type: "end" }));
    expect((await browser.closed).code).toBe(LIVE_CLOSE.ended);
    await eventually(async () =>
      expect(await messagesOf(target.conversationId)).toEqual([
        { role: "user", text: "Hello Nika, how are you?", transcription: "Hello Nika, how are you?" },
        { role: "nika", text: "Hi! I'm fine, thank you. How are you today?", transcription: null },
      ]),
    );
    expect(await balanceOf(target.userId)).toBe(9);
    expect(await minutesOf(target.userId)).toEqual([{ minute: 1, status: "used", credits: 1 }]);
    // Written after the socket closed and after the turns (the relay queues its writes): it may land after them.
    await eventually(async () =>
      expect(await rows(sql`select status, end_reason from live_sessions where user_id = ${target.userId}`)).toEqual([
        { status: "ended", end_reason: "ended" },
      ]),
    );
    // The minute served is the day's activity, once.
    const sessionId = await sessionIdOf(target.userId);
    await eventually(async () => expect(await liveActivitiesOf(target.userId)).toEqual([{ ref: `${sessionId}:1`, points: 2 }]));

    // The provider got the mode's own prompt, the voice, and barge-in left to the relay.
    const [provider] = await providerSessions();
    expect(provider!.sessionUpdate.instructions).toContain("SPOKEN CONVERSATION");
    expect(provider!.sessionUpdate.audio.output.voice).toBe("marin");
    expect(provider!.sessionUpdate.audio.input.turn_detection.interrupt_response).toBe(false);
  });

  it("gives a later session the turns so far, so Nika carries on the conversation", async () => {
    const target = await learner(10);
    await db.execute(sql`insert into chat_messages (conversation_id, role, text) values (${target.conversationId}, 'user', 'I like football')`);
    const browser = await openBrowser(target);
    await ready(browser);
    browser.socket.send(JSON.stringify({ type: "end" }));
    await browser.closed;
    const [provider] = await providerSessions();
    expect(provider!.sessionUpdate.instructions).toContain("Learner: I like football");
  });
});

describe("LiveConversation: Meu caderno", () => {
  it("reviews each finished learner turn: its mistake lands in the notebook as a live entry, for no credit", async () => {
    const target = await learner(10);
    await configureFake({ replyMs: 300, pace: 0, transcript: "I have 20 years and people is nice" });
    const browser = await openBrowser(target);
    await ready(browser);
    await speak(browser, 600);
    await eventually(() => expect(browser.of("caption").some((c) => c.speaker === "nika" && c.final)).toBe(true));
    browser.socket.send(JSON.stringify({ type: "end" }));
    await browser.closed;
    await eventually(async () =>
      expect(
        await rows(sql`
          select e."right", e.source, e.conversation_id = ${target.conversationId} as "inConversation", m.text as "turn"
          from notebook_entries e join chat_messages m on m.id = e.message_id
          where e.user_id = ${target.userId} order by e."right"`),
      ).toEqual([
        { right: "I am 20 years old", source: "live", inConversation: true, turn: "I have 20 years and people is nice" },
        { right: "people are", source: "live", inConversation: true, turn: "I have 20 years and people is nice" },
      ]),
    );
    // Only minutes are paid: the session's first minute, and nothing for the review.
    expect(await balanceOf(target.userId)).toBe(10 - (await minutesOf(target.userId)).length);
  });
});

describe("LiveConversation: a long session", () => {
  it("outlives the provider's connection timeout: the socket is not tied to it", async () => {
    const target = await learner(50);
    const browser = await openBrowser(target);
    await ready(browser);
    // A learner talking on past the timeout (speak() sends 1.6 × real time, so this much audio lasts that long).
    await speak(browser, (PROVIDER_CONNECT_TIMEOUT_MS + 1_500) * 1.6, 0);
    expect(browser.of("ended")).toEqual([]);
    browser.socket.send(JSON.stringify({ type: "end" }));
    expect((await browser.closed).code).toBe(LIVE_CLOSE.ended);
    // Closed by the relay at the end, not lost (the fake logs the close when it arrives).
    await eventually(async () => expect((await providerSessions())[0]!.closeCode).toBe(1000));
  }, 30_000);
});

describe("LiveConversation: barge-in", () => {
  it("cancels Nika's response at once and truncates her item at the milliseconds the learner heard", async () => {
    const target = await learner(10);
    await configureFake({ replyMs: 4000, pace: 1, reply: "one two three four five six seven eight nine ten" });
    const browser = await openBrowser(target);
    await ready(browser);
    await speak(browser, 600);
    await eventually(() => expect(browser.audioBytes).toBeGreaterThan(24_000)); // ≥ 0.5 s of her reply
    const itemId = browser.of("nika_item")[0]!.itemId;
    const before = browser.of("speech_started").length;

    await speak(browser, 400, 0); // the learner speaks over her
    await eventually(() => expect(browser.of("speech_started").length).toBe(before + 1));
    await eventually(async () => expect((await providerSessions())[0]!.cancels).toBe(1)); // before the browser even answered
    // The browser had ≥ 500 ms of her audio and played 400 of it.
    browser.socket.send(JSON.stringify({ type: "interrupted", itemId, playedMs: 400 }));
    await eventually(async () => expect((await providerSessions())[0]!.truncates).toEqual([{ item_id: itemId, audio_end_ms: 400 }]));
    expect((await providerSessions())[0]!.responses[0]!.status).toBe("cancelled");

    browser.socket.send(JSON.stringify({ type: "end" }));
    await browser.closed;
    // What she said is kept as far as it was heard: a part of her words, marked as cut.
    await eventually(async () => expect((await messagesOf(target.conversationId)).filter((m) => m.role === "nika")).toHaveLength(1));
    const [nika] = (await messagesOf(target.conversationId)).filter((m) => m.role === "nika");
    expect(nika!.text).toMatch(/^one( \w+)*…$/);
    expect(nika!.text.split(" ").length).toBeLessThan(10);
  });

  it("drops the words the provider still sends after she was cut: one turn, as far as it was heard, no second one", async () => {
    const target = await learner(10);
    // The provider's cancel lands 700 ms late: meanwhile her words and audio keep coming for the item already stored.
    await configureFake({ replyMs: 4000, pace: 1, reply: "one two three four five six seven eight nine ten", cancelLagMs: 700 });
    const browser = await openBrowser(target);
    await ready(browser);
    await speak(browser, 600);
    await eventually(() => expect(browser.audioBytes).toBeGreaterThan(24_000));
    const itemId = browser.of("nika_item")[0]!.itemId;

    browser.socket.send(JSON.stringify({ type: "interrupted", itemId, playedMs: 400 }));
    await eventually(async () => expect((await providerSessions())[0]!.responses[0]!.status).toBe("cancelled"));
    await new Promise((resolve) => setTimeout(resolve, 300)); // the cancelled response's last events reach the relay
    browser.socket.send(JSON.stringify({ type: "end" }));
    await browser.closed;

    await eventually(async () => expect((await messagesOf(target.conversationId)).filter((m) => m.role === "nika").length).toBeGreaterThan(0));
    await new Promise((resolve) => setTimeout(resolve, 300)); // a second turn, if one were stored, is written by now
    const nika = (await messagesOf(target.conversationId)).filter((m) => m.role === "nika");
    expect(nika.map((m) => m.text)).toHaveLength(1);
    expect(nika[0]!.text).toMatch(/^one( \w+)*…$/);
  });
});

describe("LiveConversation: credits per started minute", () => {
  it("spends one credit at the start of each minute, warns before the last, and ends at zero with Créditos Esgotados", async () => {
    const target = await learner(2);
    const browser = await openBrowser(target);
    await ready(browser);
    // A learner who talks on and on: no silence, minutes pass.
    const talking = speak(browser, MINUTE_MS * 3, 0);
    const closed = await browser.closed;
    await talking;
    expect(closed.code).toBe(LIVE_CLOSE.creditsExhausted);
    expect(browser.of("minute")).toEqual([
      { type: "minute", minute: 1, balance: 1, lastMinute: false },
      { type: "minute", minute: 2, balance: 0, lastMinute: true },
    ]);
    expect(browser.of("ended")).toEqual([{ type: "ended", reason: "credits_exhausted", message: "Seus créditos acabaram." }]);
    expect(await balanceOf(target.userId)).toBe(0);
    expect(await minutesOf(target.userId)).toEqual([
      { minute: 1, status: "used", credits: 1 },
      { minute: 2, status: "used", credits: 1 },
    ]);
    expect((await ledgerOf(target.userId)).map((row) => row.delta)).toEqual([-1, -1]);
    const sessionId = await sessionIdOf(target.userId);
    await eventually(async () =>
      expect((await liveActivitiesOf(target.userId)).map((a) => a.ref)).toEqual([`${sessionId}:1`, `${sessionId}:2`]),
    );
  });

  it("stops at 15 minutes, having charged exactly 15", async () => {
    const target = await learner(50);
    const browser = await openBrowser(target, { fast: true });
    await ready(browser);
    const talking = speak(browser, FAST_MINUTE_MS * 17 * 1.6, 0); // speak() runs at 1.6 × real time
    const closed = await browser.closed;
    await talking;
    expect(closed.code).toBe(LIVE_CLOSE.timeLimit);
    expect(await balanceOf(target.userId)).toBe(35);
    expect((await minutesOf(target.userId)).map((m) => m.minute)).toEqual(Array.from({ length: 15 }, (_, i) => i + 1));
    await eventually(async () => expect(await liveActivitiesOf(target.userId)).toHaveLength(15));
  });

  it("a minute whose charge lands as the session ends is given back at once (issue 47)", async () => {
    const target = await learner(10);
    const browser = await openBrowser(target);
    await ready(browser);
    const talking = speak(browser, MINUTE_MS * 2, 0);
    // The second minute is charged one minute after the first (whose message came as it was paid). Its charge waits
    // on the database, from 0.6 s before it is due, while the learner ends the session 0.6 s after.
    const firstMinuteAt = browser.arrivedAt[browser.messages.findIndex((message) => message.type === "minute")]!;
    const until = (at: number) => pause(Math.max(0, at - Date.now()));
    await until(firstMinuteAt + MINUTE_MS - 600);
    const release = await holdDatabase();
    await until(firstMinuteAt + MINUTE_MS + 600);
    expect(browser.of("minute")).toHaveLength(1);
    browser.socket.send(JSON.stringify({ type: "end" }));
    await browser.closed;
    await release();
    await talking;
    await eventually(async () =>
      expect(await minutesOf(target.userId)).toEqual([
        { minute: 1, status: "used", credits: 1 },
        { minute: 2, status: "refunded", credits: 1 },
      ]),
    );
    expect(await balanceOf(target.userId)).toBe(9);
  });

  it("ends after a minute of silence, charged only the minute that began", async () => {
    const target = await learner(50);
    const browser = await openBrowser(target, { fast: true });
    await ready(browser);
    const closed = await browser.closed;
    expect(closed.code).toBe(LIVE_CLOSE.silence);
    expect((await minutesOf(target.userId)).length).toBeLessThanOrEqual(2);
    expect(await balanceOf(target.userId)).toBe(50 - (await minutesOf(target.userId)).length);
  });
});

describe("LiveConversation: provider failures are refunded", () => {
  for (const mode of ["refuse", "error", "close"] as const) {
    it(`provider ${mode}: the session ends "indisponível" and the minute it failed in is given back`, async () => {
      const target = await learner(5);
      await configureFake({ replyMs: 600, pace: 0 });
      await nextProviderFailure(mode);
      const browser = await openBrowser(target);
      if (mode === "close") {
        await ready(browser);
        await speak(browser, 600); // the provider dies when its first response starts
      }
      const closed = await browser.closed;
      expect(closed.code).toBe(LIVE_CLOSE.providerUnavailable);
      expect(browser.of("ended")[0]?.reason).toBe("provider_unavailable");
      await eventually(async () => expect(await balanceOf(target.userId)).toBe(5));
      expect(await minutesOf(target.userId)).toEqual([{ minute: 1, status: "refunded", credits: 1 }]);
      expect((await ledgerOf(target.userId)).map((row) => `${row.delta} ${row.reason}`)).toEqual(["-1 live_minute", "1 refund:live_minute"]);
      // A refunded minute is no activity (a minute's activity is written after the session's end: let those writes settle).
      await eventually(async () =>
        expect(await rows(sql`select 1 from live_sessions where user_id = ${target.userId} and status = 'ended'`)).toHaveLength(1),
      );
      await pause(1_000);
      expect(await liveActivitiesOf(target.userId)).toEqual([]);
    });
  }
});

describe("LiveConversation: one session per learner, resumable", () => {
  it("a second tab takes the session over; the first is told so", async () => {
    const target = await learner(10);
    const first = await openBrowser(target);
    await ready(first);
    const second = await openBrowser(target);
    expect((await first.closed).code).toBe(LIVE_CLOSE.takenOver);
    expect(first.of("ended")[0]?.reason).toBe("taken_over");
    await ready(second);
    expect(second.of("ready")[0]!.sessionId).not.toBe(first.of("ready")[0]!.sessionId);
    second.socket.send(JSON.stringify({ type: "end" }));
    await second.closed;
  });

  it("a browser that drops comes back to the same session without paying again", async () => {
    const target = await learner(10);
    const first = await openBrowser(target);
    await ready(first);
    const sessionId = first.of("ready")[0]!.sessionId;
    first.socket.close(4000, "network lost");
    await first.closed;
    const again = await openBrowser(target, { resume: sessionId });
    await ready(again);
    expect(again.of("ready")[0]).toMatchObject({ sessionId, resumed: true });
    expect(await minutesOf(target.userId)).toHaveLength(1);
    again.socket.send(JSON.stringify({ type: "end" }));
    await again.closed;
    expect(await balanceOf(target.userId)).toBe(9);
  });

  it("a takeover during set-up ends the first session's row too: one active row, never two (issue 47)", async () => {
    const target = await learner(10);
    // The first session's set-up waits on the database; the second connection arrives (and takes over) meanwhile.
    // Whichever order the two set-ups then reach the database in, the second's row is the one active row: the first
    // writes none once taken over (writing it after the second's would end the second's row: seen as two ended rows).
    const release = await holdDatabase();
    const first = await openBrowser(target);
    await pause(300);
    const second = await openBrowser(target);
    expect((await first.closed).code).toBe(LIVE_CLOSE.takenOver);
    await pause(200);
    await release();
    await ready(second);
    const statuses = async () =>
      (await rows<{ status: string }>(sql`select status from live_sessions where user_id = ${target.userId}`)).map((r) => r.status);
    await eventually(async () => expect(await statuses()).toContain("active"));
    expect((await statuses()).filter((status) => status !== "ended")).toEqual(["active"]);
    second.socket.send(JSON.stringify({ type: "end" }));
    await second.closed;
  });

  it("a session ended during set-up (its learner signed out) ends its row, with no minute charged (issue 47)", async () => {
    const target = await learner(10);
    const release = await holdDatabase();
    const browser = await openBrowser(target);
    await pause(300); // its set-up is waiting on the database
    expect(await (await worker.dispatchFetch(`http://test/close-user?user=${target.userId}`)).json()).toBe(1);
    expect((await browser.closed).code).toBe(LIVE_CLOSE.accessLost);
    await release();
    // Closed before its row was written, it writes none; closed after, its row ends with the reason. Never active.
    await pause(500);
    const sessionRows = await rows<{ status: string; end_reason: string }>(
      sql`select status, end_reason from live_sessions where user_id = ${target.userId}`,
    );
    expect(sessionRows.filter((row) => row.status !== "ended" || row.end_reason !== "access_lost")).toEqual([]);
    expect(await minutesOf(target.userId)).toEqual([]);
    expect(await balanceOf(target.userId)).toBe(10);
  });

  it("a blocked learner's session ends (closeUser)", async () => {
    const target = await learner(10);
    const browser = await openBrowser(target);
    await ready(browser);
    const response = await worker.dispatchFetch(`http://test/close-user?user=${target.userId}`);
    expect(await response.json()).toBe(1);
    expect((await browser.closed).code).toBe(LIVE_CLOSE.accessLost);
  });
});

describe("LiveConversation: limits", () => {
  const cases: [string, (browser: Browser) => void, number][] = [
    ["an oversized frame", (b) => b.socket.send(new ArrayBuffer(9_602)), LIVE_CLOSE.tooBig],
    ["a frame of odd length", (b) => b.socket.send(new ArrayBuffer(1_921)), LIVE_CLOSE.badMessage],
    ["a message that is not ours", (b) => b.socket.send(JSON.stringify({ type: "response.create" })), LIVE_CLOSE.badMessage],
    ["broken JSON", (b) => b.socket.send("{nope"), LIVE_CLOSE.badMessage],
    ["an oversized message", (b) => b.socket.send(JSON.stringify({ type: "end", pad: "x".repeat(5_000) })), LIVE_CLOSE.tooBig],
    ["too many frames", (b) => Array.from({ length: 80 }, () => b.socket.send(frame(false))), LIVE_CLOSE.tooFast],
  ];
  for (const [what, send, code] of cases) {
    it(`closes a client that sends ${what} (${code}), storing nothing and charging only the started minute`, async () => {
      const target = await learner(10);
      const browser = await openBrowser(target);
      await ready(browser);
      send(browser);
      expect((await browser.closed).code).toBe(code);
      await pause(200);
      expect(await messagesOf(target.conversationId)).toEqual([]);
      expect(await balanceOf(target.userId)).toBe(9);
    });
  }
});

// ——— the endpoint's gates (the worker, before the object) ———

describe("connectLiveSession (/resources/live/:conversationId)", () => {
  let gateDb: Database;
  const LIVE_ENV = { OPENAI_REALTIME_URL: "wss://realtime.example/v1/realtime", OPENAI_API_KEY: "key" };
  const upgrade = (conversationId: string, cookie?: string, extra: Record<string, string> = {}) =>
    new Request(`http://nika.test/resources/live/${conversationId}`, {
      headers: { Upgrade: "websocket", ...(cookie ? { Cookie: cookie } : {}), ...extra },
    });
  async function learnerWithSession(options: { credits?: number; accountType?: "free" | "blocked"; mode?: "english" | "english-test" } = {}) {
    const n = ++learners;
    const [user] = await gateDb
      .insert(users)
      .values({
        name: "Pessoa",
        email: `gate${n}@example.com`,
        accountType: options.accountType ?? "free",
        monthlyCredits: options.credits ?? 5,
        creditsPeriod: creditPeriod(new Date()), // renewed this month already: the balance stays as set
      })
      .returning();
    const [conversation] = await gateDb
      .insert(chatConversations)
      .values({ userId: user!.id, mode: options.mode ?? "english" })
      .returning();
    const cookie = (await createSession(contextFor(gateDb), user!.id, upgrade(conversation!.id))).split(";")[0]!;
    return { cookie, conversationId: conversation!.id };
  }
  const connect = (request: Request, conversationId: string, env: Record<string, string> = LIVE_ENV) =>
    connectLiveSession(request, contextFor(gateDb, env), conversationId);

  beforeAll(async () => {
    ({ db: gateDb } = await createTestDb());
  });

  it("refuses anonymous (401), blocked (403), other origins (403) and plain requests (426)", async () => {
    const { cookie, conversationId } = await learnerWithSession();
    expect((await connect(upgrade(conversationId), conversationId)).status).toBe(401);
    const blocked = await learnerWithSession({ accountType: "blocked" });
    expect((await connect(upgrade(blocked.conversationId, blocked.cookie), blocked.conversationId)).status).toBe(403);
    expect((await connect(upgrade(conversationId, cookie, { Origin: "https://evil.example" }), conversationId)).status).toBe(403);
    const plain = new Request(`http://nika.test/resources/live/${conversationId}`, { headers: { Cookie: cookie } });
    expect((await connect(plain, conversationId)).status).toBe(426);
  });

  it("refuses another learner's conversation, the level test and ids that are not conversations (404)", async () => {
    const mine = await learnerWithSession();
    const theirs = await learnerWithSession();
    expect((await connect(upgrade(theirs.conversationId, mine.cookie), theirs.conversationId)).status).toBe(404);
    const test = await learnerWithSession({ mode: "english-test" });
    expect((await connect(upgrade(test.conversationId, test.cookie), test.conversationId)).status).toBe(404);
    expect((await connect(upgrade("../admin", mine.cookie), "../admin")).status).toBe(404);
  });

  it("refuses a learner without credits (402)", async () => {
    const { cookie, conversationId } = await learnerWithSession({ credits: 0 });
    const response = await connect(upgrade(conversationId, cookie), conversationId);
    expect(response.status).toBe(402);
    expect(await response.text()).toBe("Seus créditos acabaram.");
  });

  it("follows feature_chat_live (403) and needs a configured provider (503)", async () => {
    const { cookie, conversationId } = await learnerWithSession();
    await gateDb.update(appConfig).set({ configValue: false }).where(eq(appConfig.configKey, "feature_chat_live"));
    try {
      expect((await connect(upgrade(conversationId, cookie), conversationId)).status).toBe(403);
    } finally {
      await gateDb.update(appConfig).set({ configValue: true }).where(eq(appConfig.configKey, "feature_chat_live"));
    }
    expect((await connect(upgrade(conversationId, cookie), conversationId, {})).status).toBe(503);
  });

  it("limits connections per learner: 30 in 10 minutes, the 31st is 429 with Retry-After (issue 47)", async () => {
    const { cookie, conversationId } = await learnerWithSession();
    const answers = await Promise.all(Array.from({ length: 31 }, () => connect(upgrade(conversationId, cookie), conversationId)));
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 503)).toHaveLength(30); // through to the (absent) object
    const refused = answers.find((a) => a.status === 429)!;
    expect(await refused.text()).toMatch(/^Muitas conexões seguidas\. Tente de novo em \d+ min\.$/);
    expect(Number(refused.headers.get("Retry-After"))).toBeGreaterThan(0);
  });

  it("lets the owner through to the object (503 here: unit tests have no binding)", async () => {
    const { cookie, conversationId } = await learnerWithSession();
    const response = await connect(upgrade(conversationId, cookie, { Origin: "http://nika.test" }), conversationId);
    expect(response.status).toBe(503);
    expect(await response.text()).toBe("Conversa ao vivo indisponível.");
  });
});
