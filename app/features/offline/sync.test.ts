// The answer queue's sync against a fake sync endpoint (a fetch that speaks the endpoint's protocol: each
// key accepted once, then a duplicate; refusals chosen by the test), over fake-indexeddb.
import "fake-indexeddb/auto";
import { IDBFactory } from "fake-indexeddb";
import { beforeEach, describe, expect, it, vi } from "vitest";
import type { QueueItem } from "./db";
import type { SyncRequest, SyncResponse } from "./types";

type Modules = { db: typeof import("./db"); sync: typeof import("./sync") };
let m: Modules;

beforeEach(async () => {
  // a fresh database and fresh module state (the open connection, the in-context lock) per test
  globalThis.indexedDB = new IDBFactory();
  vi.resetModules();
  m = { db: await import("./db"), sync: await import("./sync") };
});

const ANNA = "11111111-1111-4111-8111-111111111111";
const BRUNO = "22222222-2222-4222-8222-222222222222";

let n = 0;
function item(userId: string, over: Partial<QueueItem["answer"]> = {}): QueueItem {
  n += 1;
  const bundleId = `bundle-${userId.slice(0, 4)}`;
  const gameId = `game-${userId.slice(0, 4)}`;
  return {
    userId,
    bundleRef: { id: bundleId, signature: `sig-${bundleId}` },
    game: { id: gameId, bundleId, questionCount: 10 },
    answer: {
      key: `key-${n}`,
      gameId,
      position: n,
      cardId: `card-${n}`,
      chosenId: `card-${n}`,
      answeredAt: new Date(Date.UTC(2026, 10, 27, 12, 0, n)).toISOString(),
      ...over,
    },
  };
}

/** A sync endpoint: accepts a key once (later a duplicate), refuses the keys the test names with their code. */
function fakeServer(refuse: Record<string, string> = {}) {
  const seen = new Set<string>();
  const bodies: SyncRequest[] = [];
  const fetchImpl = vi.fn(async (url: string | URL | Request, init?: RequestInit) => {
    expect(String(url)).toBe("/resources/offline/sync");
    expect(init?.method).toBe("POST");
    const body = JSON.parse(String(init?.body)) as SyncRequest;
    bodies.push(body);
    await new Promise((resolve) => setTimeout(resolve, 5));
    const out: SyncResponse = { accepted: [], duplicate: [], refused: [], balance: 40 };
    for (const answer of body.answers) {
      const code = refuse[answer.key];
      if (code) out.refused.push({ key: answer.key, code, message: "Recusada." });
      else if (seen.has(answer.key)) out.duplicate.push(answer.key);
      else {
        seen.add(answer.key);
        out.accepted.push(answer.key);
      }
    }
    return new Response(JSON.stringify(out), { status: 200, headers: { "Content-Type": "application/json" } });
  });
  return { fetchImpl: fetchImpl as unknown as typeof fetch, bodies, calls: fetchImpl };
}

const keysOf = (items: QueueItem[]) => items.map((i) => i.answer.key).sort();

describe("syncQueue", () => {
  it("sends only the current account's answers, with their bundles and games, and drops what was accepted", async () => {
    const mine = [item(ANNA), item(ANNA)];
    const theirs = [item(BRUNO)];
    await m.db.enqueue([...mine, ...theirs]);
    await m.db.setCurrentAccount(ANNA);
    const server = fakeServer();

    expect(await m.sync.syncQueue(server.fetchImpl)).toEqual({ sent: 2, accepted: 2, kept: 0 });
    expect(server.bodies).toHaveLength(1);
    const body = server.bodies[0]!;
    expect(body.answers.map((a) => a.key).sort()).toEqual(keysOf(mine));
    expect(body.bundles).toEqual([mine[0]!.bundleRef]);
    expect(body.games).toEqual([mine[0]!.game]);
    expect(await m.db.accountQueue(ANNA)).toEqual([]);
    // another account's queue is untouched
    expect(keysOf(await m.db.accountQueue(BRUNO))).toEqual(keysOf(theirs));
  });

  it("sends nothing without a signed-in account (signed out offline): every queue stays", async () => {
    await m.db.enqueue([item(ANNA), item(BRUNO)]);
    const server = fakeServer();
    expect(await m.sync.syncQueue(server.fetchImpl)).toEqual({ sent: 0, accepted: 0, kept: 0 });
    expect(server.calls).not.toHaveBeenCalled();
    await m.db.setCurrentAccount(ANNA);
    await m.db.clearCurrentAccount();
    expect(await m.sync.syncQueue(server.fetchImpl)).toEqual({ sent: 0, accepted: 0, kept: 0 });
    expect((await m.db.accountQueue(ANNA)).length + (await m.db.accountQueue(BRUNO)).length).toBe(2);
  });

  it("keeps credits_exhausted and not_yours; drops duplicates and the other refusals", async () => {
    const items = [item(ANNA), item(ANNA), item(ANNA), item(ANNA), item(ANNA)];
    const [credits, notYours, tampered, outside, fine] = items.map((i) => i.answer.key);
    await m.db.enqueue(items);
    await m.db.setCurrentAccount(ANNA);
    const server = fakeServer({
      [credits!]: "credits_exhausted",
      [notYours!]: "not_yours",
      [tampered!]: "bad_signature",
      [outside!]: "outside_bundle",
    });

    expect(await m.sync.syncQueue(server.fetchImpl)).toEqual({ sent: 5, accepted: 1, kept: 2 });
    expect(keysOf(await m.db.accountQueue(ANNA))).toEqual([credits, notYours].sort());
    // a replay of an accepted key is a duplicate: dropped too
    await m.db.enqueue([items[4]!]);
    expect(await m.sync.syncQueue(server.fetchImpl)).toEqual({ sent: 3, accepted: 0, kept: 2 });
    expect(keysOf(await m.db.accountQueue(ANNA))).not.toContain(fine);
  });

  it("drops nothing when the server does not answer 200 (signed out, an error) or the network fails", async () => {
    await m.db.enqueue([item(ANNA)]);
    await m.db.setCurrentAccount(ANNA);
    const unauthorized = vi.fn(async () => new Response(JSON.stringify({ error: "Entre na sua conta." }), { status: 401 }));
    await expect(m.sync.syncQueue(unauthorized as unknown as typeof fetch)).rejects.toThrow(m.sync.SyncError);
    const offline = vi.fn(async () => {
      throw new TypeError("Failed to fetch");
    });
    await expect(m.sync.syncQueue(offline as unknown as typeof fetch)).rejects.toThrow("Failed to fetch");
    expect(await m.db.accountQueue(ANNA)).toHaveLength(1);
  });

  it("ignores acknowledgements of keys it did not send", async () => {
    const theirs = item(BRUNO);
    await m.db.enqueue([item(ANNA), theirs]);
    await m.db.setCurrentAccount(ANNA);
    const lying = vi.fn(
      async (_url: unknown, init?: RequestInit) =>
        new Response(
          JSON.stringify({
            accepted: (JSON.parse(String(init?.body)) as SyncRequest).answers.map((a) => a.key),
            duplicate: [theirs.answer.key],
            refused: [],
            balance: 1,
          }),
        ),
    );
    await m.sync.syncQueue(lying as unknown as typeof fetch);
    expect(keysOf(await m.db.accountQueue(BRUNO))).toEqual([theirs.answer.key]);
  });

  it("sends the answers in the order they were given, at most 500 per request", async () => {
    const items = Array.from({ length: 501 }, () => item(ANNA)).reverse();
    await m.db.enqueue(items);
    await m.db.setCurrentAccount(ANNA);
    const server = fakeServer();
    expect(await m.sync.syncQueue(server.fetchImpl)).toEqual({ sent: 501, accepted: 501, kept: 0 });
    expect(server.bodies.map((b) => b.answers.length)).toEqual([500, 1]);
    const times = server.bodies.flatMap((b) => b.answers.map((a) => a.answeredAt));
    expect(times).toEqual([...times].sort());
  });

  it("a queue of more than 100 bundles goes in requests of at most 100 bundles each, every answer sent once", async () => {
    // 250 answers of 150 bundles (months offline): one request with all of them would be refused whole, every time.
    const items = Array.from({ length: 250 }, (_, i) => {
      const base = item(ANNA);
      const bundleId = `bundle-${i % 150}`;
      return { ...base, bundleRef: { id: bundleId, signature: `sig-${bundleId}` }, game: { ...base.game, bundleId } };
    });
    await m.db.enqueue(items);
    await m.db.setCurrentAccount(ANNA);
    const server = fakeServer();
    expect(await m.sync.syncQueue(server.fetchImpl)).toEqual({ sent: 250, accepted: 250, kept: 0 });
    expect(server.bodies.length).toBeGreaterThan(1);
    for (const body of server.bodies) {
      expect(body.bundles.length).toBeLessThanOrEqual(100);
      const used = new Set(body.answers.map((a) => items.find((x) => x.answer.key === a.key)!.bundleRef.id));
      expect(new Set(body.bundles.map((b) => b.id))).toEqual(used);
    }
    expect(server.bodies.flatMap((b) => b.answers.map((a) => a.key)).sort()).toEqual(keysOf(items));
  });

  it("two syncs at once do not send the same answers twice", async () => {
    await m.db.enqueue([item(ANNA), item(ANNA), item(ANNA)]);
    await m.db.setCurrentAccount(ANNA);
    const server = fakeServer();
    const [first, second] = await Promise.all([m.sync.syncQueue(server.fetchImpl), m.sync.syncQueue(server.fetchImpl)]);
    expect(first.sent + second.sent).toBe(3);
    expect(server.bodies.flatMap((b) => b.answers)).toHaveLength(3);
    expect(await m.db.accountQueue(ANNA)).toEqual([]);
  });

  it("uses Web Locks where the browser has them", async () => {
    const request = vi.fn((_name: string, task: () => Promise<unknown>) => task());
    vi.stubGlobal("navigator", { locks: { request } });
    try {
      await m.db.setCurrentAccount(ANNA);
      await m.sync.syncQueue(fakeServer().fetchImpl);
      expect(request).toHaveBeenCalledWith("nika-offline-sync", expect.any(Function));
    } finally {
      vi.unstubAllGlobals();
    }
  });
});
