// "Meu caderno": a learner's turn is reviewed after Nika's reply (a structured call to the fake OpenAI provider) and
// its mistakes stored once, counted when made again, never back once dismissed; and /caderno's page and forms.
import { eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { sendMessage } from "~/features/chat/sending.server";
import { startConversation } from "~/features/conversation";
import { loadNotebookPage, notebookAction } from "~/features/notebook";
import { notebookEntries } from "~/features/notebook/tables";
import { encodeWav } from "~/lib/audio/wav";
import { getBalance } from "~/server/credits.server";
import type { Database } from "~/server/db.server";
import { users } from "~/server/schema";
import { useChatWorld } from "./chat-world";
import { freePort } from "./fake-upstream";
import { args, call, insertLearner, request, type TestLearner } from "./harness";

const world = useChatWorld(await freePort(), "notebook-openai-key");
const API = world.api;
let db: Database;
let n = 0;
beforeAll(() => {
  db = world.db;
});

/** A load context whose background work (the review) can be awaited. */
function recordingCtx(env: Record<string, string | undefined> = world.aiEnv) {
  const pending: Promise<unknown>[] = [];
  const context = world.ctx(env);
  context.cloudflare.ctx.waitUntil = (promise: Promise<unknown>) => void pending.push(promise);
  return { context, settled: () => Promise.all(pending) };
}

async function newLearner(credits = 10) {
  const [user] = await db
    .insert(users)
    .values({ name: "Caderno", email: `caderno${++n}@example.com`, monthlyCredits: credits })
    .returning();
  return user!;
}

async function say(user: { id: string }, text: string, env?: Record<string, string | undefined>) {
  const { context, settled } = recordingCtx(env);
  const conversation = await startConversation(context, user, { mode: "english" });
  const result = await sendMessage(context, user, conversation.id, { text });
  await settled();
  return { conversation, result };
}

const entriesOf = (userId: string) =>
  db
    .select({
      kind: notebookEntries.kind,
      wrong: notebookEntries.wrong,
      right: notebookEntries.right,
      count: notebookEntries.count,
      source: notebookEntries.source,
      alternatives: notebookEntries.alternatives,
      dismissed: sql<boolean>`${notebookEntries.dismissedAt} is not null`,
    })
    .from(notebookEntries)
    .where(eq(notebookEntries.userId, userId))
    .orderBy(notebookEntries.right);
const reviews = async () => (await (await fetch(`${API}/__ai/reviews`)).json()) as { body: Record<string, unknown> }[];
const scriptReview = (content: string) => fetch(`${API}/__ai/review`, { method: "POST", body: content });
const mistake = (over: Record<string, unknown> = {}) => ({
  wrong: "people is",
  right: "people are",
  kind: "grammar",
  explanation: "People já é plural em inglês: use are.",
  alternatives: ["people was", "peoples is", "people be"],
  ...over,
});

describe("the review of a learner's turn", () => {
  it("stores a text turn's mistake once, with its turn, for no credit; the same mistake again counts 2", async () => {
    const user = await newLearner(10);
    const first = await say(user, "I have 20 years and people is nice");
    expect(first.result.status).toBe("ok");
    expect(await getBalance(db, user.id)).toBe(9); // the message's credit, nothing for the review
    expect(await entriesOf(user.id)).toEqual([
      {
        kind: "false_friend",
        wrong: "I have 20 years",
        right: "I am 20 years old",
        count: 1,
        source: "chat",
        alternatives: ["I have 20 years old", "I am 20 years", "I have 20 age"],
        dismissed: false,
      },
      { kind: "grammar", wrong: "people is", right: "people are", count: 1, source: "chat", alternatives: expect.any(Array), dismissed: false },
    ]);
    const [review] = await reviews();
    expect(review!.body).toMatchObject({
      model: "fake-chat",
      response_format: { type: "json_schema", json_schema: { name: "learner_mistakes", strict: true } },
    });

    await say(user, "People is always late");
    expect((await entriesOf(user.id)).map((e) => [e.right, e.count, e.wrong])).toEqual([
      ["I am 20 years old", 1, "I have 20 years"],
      ["people are", 2, "People is"],
    ]);
  });

  it("uses OPENAI_REVIEW_MODEL when set", async () => {
    const user = await newLearner();
    await say(user, "people is here", { ...world.aiEnv, OPENAI_REVIEW_MODEL: "fake-review" });
    expect((await reviews()).map((r) => r.body.model)).toEqual(["fake-review"]);
  });

  it("stores nothing from a malformed answer, an empty list or a correction past the field limit; keeps the valid ones", async () => {
    const user = await newLearner();
    await scriptReview('{"mistakes": [ {"wrong": ');
    await say(user, "people is here");
    await scriptReview(JSON.stringify({ mistakes: [] }));
    await say(user, "people is here");
    await scriptReview(JSON.stringify({ mistakes: [mistake({ right: "x".repeat(201) })] }));
    await say(user, "people is here");
    expect(await entriesOf(user.id)).toEqual([]);

    // A quote the learner never said, a correction equal to the words, or the right form among the alternatives: dropped.
    await scriptReview(
      JSON.stringify({
        mistakes: [
          mistake({ wrong: "nobody said this" }),
          mistake({ right: "People is" }),
          mistake({ alternatives: ["people are", "a", "b"] }),
          mistake(),
          mistake({ wrong: "People is" }), // the same mistake twice in one answer counts once
        ],
      }),
    );
    await say(user, "People is here");
    expect((await entriesOf(user.id)).map((e) => [e.right, e.count])).toEqual([["people are", 1]]);
  });

  it("a voice message's transcript is reviewed too, as a voice entry", async () => {
    const user = await newLearner();
    await fetch(`${API}/__ai/config?transcript=${encodeURIComponent("I have 31 years")}`, { method: "POST" });
    const { context, settled } = recordingCtx();
    const conversation = await startConversation(context, user, { mode: "english" });
    const samples = new Float32Array(8000).map((_, i) => 0.3 * Math.sin((2 * Math.PI * 440 * i) / 16000));
    const result = await sendMessage(context, user, conversation.id, { audio: { bytes: encodeWav(samples, 16000), mimeType: "audio/wav" } });
    await settled();
    expect(result.status).toBe("ok");
    expect((await entriesOf(user.id)).map((e) => [e.right, e.source])).toEqual([["I am 31 years old", "voice"]]);
  });

  it("a provider without structured answers (the webhooks) makes no review and no entry", async () => {
    const user = await newLearner();
    const webhookEnv = { NIKA_CHAT_WEBHOOK_URL: `${API}/webhook/nika-chat` };
    const { result } = await say(user, "people is here", webhookEnv);
    expect(result.status).toBe("ok");
    expect(await reviews()).toEqual([]);
    expect(await entriesOf(user.id)).toEqual([]);
  });

  it("a failing review costs nothing and changes nothing: the reply stands", async () => {
    const user = await newLearner(5);
    await scriptReview("not json at all");
    const { result } = await say(user, "people is here");
    expect(result.status).toBe("ok");
    expect(await getBalance(db, user.id)).toBe(4);
    expect(await entriesOf(user.id)).toEqual([]);
  });
});

describe("/caderno", () => {
  type Page = Awaited<ReturnType<typeof loadNotebookPage>>;
  const page = async (learner: TestLearner) =>
    (await call<Page>(() => loadNotebookPage(args(request("/caderno", { jar: learner.jar }), world.ctx())))).data;
  const post = (learner: TestLearner, form: Record<string, string>) =>
    call(() => notebookAction(args(request("/caderno", { form, jar: learner.jar }), world.ctx())));

  it("groups the entries by kind; 'Já sei' masters one, 'Essa correção está errada' hides it for good", async () => {
    const user = await insertLearner(db);
    await say(user, "I have 20 years and people is nice");
    const before = await page(user);
    expect(before.total).toBe(2);
    expect(before.groups.map((g) => [g.kind, g.entries.map((e) => [e.wrong, e.right, e.state, e.count])])).toEqual([
      ["grammar", [["people is", "people are", "new", 1]]],
      ["false_friend", [["I have 20 years", "I am 20 years old", "new", 1]]],
    ]);
    expect(before.groups[0]!.entries[0]!.where).toEqual({
      href: expect.stringMatching(/^\/chat-with-nika\/english\?c=[0-9a-f-]{36}#m-[0-9a-f-]{36}$/),
      label: "Na conversa",
    });

    const grammar = before.groups[0]!.entries[0]!;
    const mastered = await post(user, { intent: "master", entryId: grammar.id });
    expect([mastered.status, mastered.location]).toEqual([302, "/caderno"]);
    const friend = before.groups[1]!.entries[0]!;
    expect((await post(user, { intent: "dismiss", entryId: friend.id })).status).toBe(302);
    const after = await page(user);
    expect(after.groups.map((g) => [g.kind, g.entries.map((e) => e.state)])).toEqual([["grammar", ["mastered"]]]);

    // The dismissed mistake made again is neither shown nor counted; the mastered one made again is practised.
    await say(user, "I have 20 years, people is fine");
    expect((await entriesOf(user.id)).map((e) => [e.right, e.count, e.dismissed])).toEqual([
      ["I am 20 years old", 1, true],
      ["people are", 2, false],
    ]);
    expect((await page(user)).groups.flatMap((g) => g.entries.map((e) => e.state))).toEqual(["practising"]);
  });

  it("refuses another learner's entry (404), an unknown intent or a broken id (400), and changes nothing", async () => {
    const owner = await insertLearner(db);
    const other = await insertLearner(db);
    await say(owner, "people is here");
    const [entry] = (await page(owner)).groups[0]!.entries;
    expect((await post(other, { intent: "dismiss", entryId: entry!.id })).status).toBe(404);
    expect((await post(owner, { intent: "delete", entryId: entry!.id })).status).toBe(400);
    expect((await post(owner, { intent: "dismiss", entryId: "not-a-uuid" })).status).toBe(400);
    expect((await entriesOf(owner.id)).map((e) => e.dismissed)).toEqual([false]);
  });

  it("reads the page in 2 statements: the session's and the entries'", async () => {
    const user = await insertLearner(db);
    await say(user, "I have 20 years and people is nice");
    await page(user); // the first page load may also refresh the session
    const before = world.queryCount();
    expect((await page(user)).total).toBe(2);
    const statements = world.queryCount() - before;
    expect(statements).toBeLessThanOrEqual(2);
    console.info(`/caderno: ${statements} statements`);
  });

  it("an empty notebook is an empty page", async () => {
    expect(await page(await insertLearner(db))).toEqual({ groups: [], total: 0 });
  });
});

describe("the admin's figures", () => {
  it("entries per learner this week, the share dismissed per kind, the share mastered within 30 days — in the one statement", async () => {
    const { loadAnalytics } = await import("~/features/admin/console.server");
    const now = new Date("2031-03-20T12:00:00Z"); // after every other test's rows: only these count as old
    const day = 24 * 60 * 60_000;
    const at = (daysAgo: number) => new Date(now.getTime() - daysAgo * day);
    const base = await loadAnalytics(db, now);
    const [a, b] = [await newLearner(), await newLearner()];
    const row = (userId: string, right: string, over: Partial<typeof notebookEntries.$inferInsert>) => ({
      userId,
      kind: "grammar" as const,
      wrong: "x",
      right,
      rightKey: right,
      explanation: "e",
      alternatives: ["1", "2", "3"],
      source: "chat" as const,
      ...over,
    });
    await db
      .insert(notebookEntries)
      .values([
        row(a.id, "this week 1", { createdAt: at(1) }),
        row(a.id, "this week 2", { createdAt: at(2), kind: "spelling", dismissedAt: at(1) }),
        row(b.id, "this week 3", { createdAt: at(3) }),
        row(a.id, "old, mastered in 10 days", { createdAt: at(50), state: "mastered", masteredAt: at(40) }),
        row(a.id, "old, mastered in 35 days", { createdAt: at(50), state: "mastered", masteredAt: at(15) }),
        row(b.id, "old, not mastered", { createdAt: at(31) }),
      ]);
    const { notebook } = await loadAnalytics(db, now);
    expect([notebook.entries7Days - base.notebook.entries7Days, notebook.learners7Days - base.notebook.learners7Days]).toEqual([3, 2]);
    const kind = (k: string) => notebook.dismissedByKind.find((r) => r.kind === k)!;
    expect(kind("spelling")).toEqual({ kind: "spelling", total: 1, dismissed: 1 });
    expect(kind("grammar").total - base.notebook.dismissedByKind.find((r) => r.kind === "grammar")!.total).toBe(2);
    expect(notebook.mastered30).toEqual({ eligible: base.notebook.mastered30.eligible + 3, mastered: base.notebook.mastered30.mastered + 1 });
  });
});
