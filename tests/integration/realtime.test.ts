// Realtime comments: the lesson channel Durable Object and `publishLessonComment` run for real in
// workerd (Miniflare, the runtime `wrangler dev` uses) bundled from the app sources; the WebSocket
// endpoint's gates run against PGlite with the real migrations; the client hook's pure parts as units.
// The whole path through `wrangler dev` and two browsers is tests/e2e/courses-live.spec.ts.
import { eq } from "drizzle-orm";
import type { Miniflare } from "miniflare";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { connectLessonChannel, publishLessonComment } from "~/features/courses/lesson-live.server";
import { isCommentMessage, liveUrl, reconnectDelay } from "~/features/courses/live";
import { createSession } from "~/server/auth.server";
import type { Database } from "~/server/db.server";
import { appConfig, users } from "~/server/schema";
import { contextFor, createTestDb } from "./harness";
import { startTestWorker } from "./workerd";

// ——— the Durable Object and publish, in workerd ———

// A test worker around the app's own modules: /connect/:id opens a socket on the lesson's channel the
// way connectLessonChannel does after its checks; /publish/:id calls publishLessonComment; /publish-
// broken/:id calls it with a namespace whose objects fail (a platform failure, not an app double).
const TEST_WORKER = `
import { DurableObject } from "cloudflare:workers";
import { publishLessonComment } from "./app/features/courses/lesson-live.server";
export { LessonChannel } from "./app/features/courses/lesson-channel.server";
export class BrokenChannel extends DurableObject {
  async notifyComment() { throw new Error("channel unavailable"); }
}
const contextWith = (env, ctx) => ({ cloudflare: { env, ctx }, memo: new Map() });
export default {
  async fetch(request, env, ctx) {
    const [, action, lessonId] = new URL(request.url).pathname.split("/");
    if (action === "connect") {
      const channels = env.LESSON_CHANNELS;
      return channels.get(channels.idFromName(lessonId.toLowerCase())).fetch("https://lesson-channel/connect", { headers: { Upgrade: "websocket" } });
    }
    if (action === "connect-plain") {
      return env.LESSON_CHANNELS.get(env.LESSON_CHANNELS.idFromName(lessonId)).fetch("https://lesson-channel/connect");
    }
    if (action === "publish") {
      await publishLessonComment(contextWith(env, ctx), lessonId);
      return new Response("published");
    }
    if (action === "publish-broken") {
      await publishLessonComment(contextWith({ ...env, LESSON_CHANNELS: env.BROKEN }, ctx), lessonId);
      return new Response("published anyway");
    }
    return new Response("not found", { status: 404 });
  },
};
`;

let mf: Miniflare;
beforeAll(async () => {
  mf = await startTestWorker(TEST_WORKER, {
    durableObjects: {
      LESSON_CHANNELS: { className: "LessonChannel", useSQLite: true },
      BROKEN: { className: "BrokenChannel", useSQLite: true },
    },
  });
});
afterAll(async () => {
  await mf?.dispose();
});

const LESSON_A = "0b6f4c1e-4a8d-4a55-9a58-2d1f3c3e0a01";
const LESSON_B = "0b6f4c1e-4a8d-4a55-9a58-2d1f3c3e0b02";

type Client = { received: string[]; socket: NonNullable<Awaited<ReturnType<Miniflare["dispatchFetch"]>>["webSocket"]> };

async function openSocket(lessonId: string): Promise<Client> {
  const response = await mf.dispatchFetch(`http://test/connect/${lessonId}`, { headers: { Upgrade: "websocket" } });
  expect(response.status).toBe(101);
  const socket = response.webSocket!;
  const client: Client = { received: [], socket };
  socket.addEventListener("message", (event) => client.received.push(String(event.data)));
  socket.accept();
  return client;
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 150));

describe("lesson channel (Durable Object) and publishLessonComment", () => {
  it("tells every socket of the lesson, and only that lesson, that a comment exists — without its content", async () => {
    const [a1, a2, b] = await Promise.all([openSocket(LESSON_A), openSocket(LESSON_A), openSocket(LESSON_B)]);
    const response = await mf.dispatchFetch(`http://test/publish/${LESSON_A}`);
    expect(await response.text()).toBe("published");
    await vi.waitFor(() => expect(a2.received).toHaveLength(1));
    await settle();
    const expected = JSON.stringify({ type: "comment", lessonId: LESSON_A });
    expect(a1.received).toEqual([expected]);
    expect(a2.received).toEqual([expected]);
    expect(b.received).toEqual([]);
    expect(isCommentMessage(a1.received[0])).toBe(true);
    for (const client of [a1, a2, b]) client.socket.close(1000);
  });

  it("maps upper- and lower-case lesson ids to the same channel", async () => {
    const client = await openSocket(LESSON_B);
    await mf.dispatchFetch(`http://test/publish/${LESSON_B.toUpperCase()}`);
    await vi.waitFor(() => expect(client.received).toEqual([JSON.stringify({ type: "comment", lessonId: LESSON_B })]));
    client.socket.close(1000);
  });

  it('answers the "ping" keepalive with "pong" and ignores other messages', async () => {
    const client = await openSocket(LESSON_A);
    client.socket.send("hello");
    client.socket.send("ping");
    await vi.waitFor(() => expect(client.received).toEqual(["pong"]));
    client.socket.close(1000);
  });

  it("keeps publishing to the sockets that remain after others close", async () => {
    const [gone, stays] = await Promise.all([openSocket(LESSON_A), openSocket(LESSON_A)]);
    gone.socket.close(1000, "bye");
    await settle();
    await mf.dispatchFetch(`http://test/publish/${LESSON_A}`);
    await vi.waitFor(() => expect(stays.received).toHaveLength(1));
    expect(gone.received).toEqual([]);
    stays.socket.close(1000);
  });

  it("refuses a request that is not a WebSocket upgrade", async () => {
    const response = await mf.dispatchFetch(`http://test/connect-plain/${LESSON_A}`);
    expect(response.status).toBe(426);
    await response.arrayBuffer();
  });

  it("never fails the caller when the channel is unavailable, and logs it", async () => {
    const response = await mf.dispatchFetch(`http://test/publish-broken/${LESSON_A}`);
    expect(response.status).toBe(200);
    expect(await response.text()).toBe("published anyway");
  });

  it("does nothing without the LESSON_CHANNELS binding (unit tests, vite dev)", async () => {
    await expect(publishLessonComment(contextFor(undefined as never), LESSON_A)).resolves.toBeUndefined();
  });
});

// ——— the WebSocket endpoint's gates, against PGlite ———

describe("connectLessonChannel (the /resources/lessons/:id/live endpoint)", () => {
  let db: Database;
  const upgrade = (cookie?: string, extra: Record<string, string> = {}) =>
    new Request(`http://nika.test/resources/lessons/${LESSON_A}/live`, {
      headers: { Upgrade: "websocket", ...(cookie ? { Cookie: cookie } : {}), ...extra },
    });
  async function userWithSession(email: string, accountType: "free" | "blocked" = "free") {
    const [user] = await db.insert(users).values({ name: "Pessoa", email, accountType }).returning({ id: users.id });
    const setCookie = await createSession(contextFor(db), user!.id, upgrade());
    return setCookie.split(";")[0]!;
  }
  const connect = (request: Request, lessonId = LESSON_A) => connectLessonChannel(request, contextFor(db), lessonId);

  beforeAll(async () => {
    ({ db } = await createTestDb());
  });

  it("does not upgrade anonymous requests (401)", async () => {
    expect((await connect(upgrade())).status).toBe(401);
  });

  it("does not upgrade blocked users (403)", async () => {
    const cookie = await userWithSession("bloqueada@example.com", "blocked");
    expect((await connect(upgrade(cookie))).status).toBe(403);
  });

  it("answers 426 to plain requests and 404 to ids that are not lesson ids", async () => {
    const cookie = await userWithSession("curiosa@example.com");
    const plain = await connect(new Request(`http://nika.test/resources/lessons/${LESSON_A}/live`, { headers: { Cookie: cookie } }));
    expect(plain.status).toBe(426);
    expect(plain.headers.get("Upgrade")).toBe("websocket");
    expect((await connect(upgrade(cookie), "../admin")).status).toBe(404);
  });

  it("refuses pages of other origins (cross-site WebSocket hijacking)", async () => {
    const cookie = await userWithSession("origem@example.com");
    expect((await connect(upgrade(cookie, { Origin: "https://evil.example" }))).status).toBe(403);
  });

  it("follows the feature_teacher_flix flag", async () => {
    const cookie = await userWithSession("flag@example.com");
    await db.update(appConfig).set({ configValue: false }).where(eq(appConfig.configKey, "feature_teacher_flix"));
    try {
      expect((await connect(upgrade(cookie))).status).toBe(403);
    } finally {
      // Restored even when the assertion fails, so the next tests see the flag on.
      await db.update(appConfig).set({ configValue: true }).where(eq(appConfig.configKey, "feature_teacher_flix"));
    }
  });

  it("lets a signed-in learner through to the channel (503 here: unit tests have no binding)", async () => {
    const cookie = await userWithSession("aluna@example.com");
    expect((await connect(upgrade(cookie, { Origin: "http://nika.test" }))).status).toBe(503);
    expect((await connect(upgrade(cookie), LESSON_A.toUpperCase())).status).toBe(503);
  });
});

// ——— the client hook's pure parts ———

describe("useLessonLiveRefresh helpers", () => {
  it("reconnects after 1 s, doubling up to 30 s", () => {
    expect([0, 1, 2, 3, 4, 5, 6, 20].map(reconnectDelay)).toEqual([1000, 2000, 4000, 8000, 16000, 30000, 30000, 30000]);
  });

  it("builds ws:// or wss:// URLs of the lesson's channel", () => {
    expect(liveUrl({ protocol: "http:", host: "localhost:8787" }, LESSON_A)).toBe(`ws://localhost:8787/resources/lessons/${LESSON_A}/live`);
    expect(liveUrl({ protocol: "https:", host: "nika.app" }, "a/b")).toBe("wss://nika.app/resources/lessons/a%2Fb/live");
  });

  it("recognises only comment notices", () => {
    expect(isCommentMessage(JSON.stringify({ type: "comment", lessonId: LESSON_A }))).toBe(true);
    expect(isCommentMessage("pong")).toBe(false);
    expect(isCommentMessage("{not json")).toBe(false);
    expect(isCommentMessage(JSON.stringify({ type: "other" }))).toBe(false);
    expect(isCommentMessage(new ArrayBuffer(2))).toBe(false);
  });
});
