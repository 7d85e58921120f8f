// Issue 49, items 5 and 6: a new conversation brings the learner's due "Meu caderno" entries back (its system prompt
// carries them, as the fake provider records it), a review that sees one used right unprompted is an FSRS Good with a
// 'used_right' sighting, and "Resumo da conversa" shows what the conversation was.
import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { startAndRedirect } from "~/features/chat/page.server";
import { sendMessage } from "~/features/chat/sending.server";
import { modeTarget } from "~/features/conversation";
import { chatConversations } from "~/features/conversation/tables";
import { lessons, modules } from "~/features/courses/tables";
import { loadLiveContext } from "~/features/live/live.server";
import { liveMinutes, liveSessions } from "~/features/live/tables";
import { loadConversationReport, type ConversationReport } from "~/features/notebook/report.server";
import { notebookEntries, notebookSightings } from "~/features/notebook/tables";
import * as modeRoute from "~/routes/_app+/_chat+/chat-with-nika.$mode";
import type { Database } from "~/server/db.server";
import { useChatWorld } from "./chat-world";
import { freePort } from "./fake-upstream";
import { args, call, insertLearner, request, type TestLearner } from "./harness";

const world = useChatWorld(await freePort(), "focus-openai-key");
const API = world.api;
let db: Database;
beforeAll(() => {
  db = world.db;
});

/** A load context whose background work (the review) can be awaited. */
function recordingCtx() {
  const pending: Promise<unknown>[] = [];
  const context = world.ctx();
  context.cloudflare.ctx.waitUntil = (promise: Promise<unknown>) => void pending.push(promise);
  return { context, settled: () => Promise.all(pending) };
}

/** A new conversation the way the chat page starts one (no `?c`): its id. */
async function open(who: TestLearner, mode = "english") {
  const outcome = await call(() => modeRoute.loader(args(request(`/chat-with-nika/${mode}`, { jar: who.jar }), world.ctx(), { mode })));
  expect(outcome.status).toBe(302);
  return /\?c=([0-9a-f-]{36})$/.exec(outcome.location ?? "")![1]!;
}

/** One learner message in the conversation, its review awaited. */
async function say(who: TestLearner, conversationId: string, text: string) {
  const { context, settled } = recordingCtx();
  const result = await sendMessage(context, who, conversationId, { text });
  await settled();
  expect(result.status).toBe("ok");
  return result as Extract<typeof result, { status: "ok" }>;
}

type AiRequest = { path: string; body: { messages: { role: string; content: string }[] } };
const lastSystemPrompt = async () => {
  const requests = ((await (await fetch(`${API}/__ai/requests`)).json()) as AiRequest[]).filter((r) => r.path === "/v1/chat/completions");
  return requests.at(-1)!.body.messages[0]!.content;
};
const reviews = async () => (await (await fetch(`${API}/__ai/reviews`)).json()) as AiRequest[];
const scriptReview = (answer: unknown) =>
  fetch(`${API}/__ai/review`, { method: "POST", body: typeof answer === "string" ? answer : JSON.stringify(answer) });

/** An entry of the learner's notebook, due now (as a review would have stored it). */
async function entry(userId: string, over: Partial<typeof notebookEntries.$inferInsert> = {}) {
  const right = over.right ?? "people are";
  const [row] = await db
    .insert(notebookEntries)
    .values({
      userId,
      kind: "grammar",
      wrong: "people is",
      right,
      rightKey: right.toLowerCase(),
      explanation: "People já é plural em inglês: use are.",
      alternatives: ["people was", "peoples is", "people be"],
      source: "chat",
      due: new Date(Date.now() - 60_000),
      ...over,
    })
    .returning();
  return row!;
}

const memoryOf = async (entryId: string) =>
  (
    await db
      .select({ due: notebookEntries.due, reps: notebookEntries.reps, lastReview: notebookEntries.lastReview, count: notebookEntries.count })
      .from(notebookEntries)
      .where(eq(notebookEntries.id, entryId))
  )[0]!;
const sightingsOf = (entryId: string, kind: "made" | "used_right") =>
  db
    .select({ conversationId: notebookSightings.conversationId, messageId: notebookSightings.messageId })
    .from(notebookSightings)
    .where(and(eq(notebookSightings.entryId, entryId), eq(notebookSightings.kind, kind)));
const focusOf = async (conversationId: string) =>
  (await db.select({ focus: chatConversations.focus }).from(chatConversations).where(eq(chatConversations.id, conversationId)))[0]!.focus;

describe("Nika brings due mistakes back", () => {
  it("a new conversation's prompt carries the learner's due entries; one with none due carries none", async () => {
    const who = await insertLearner(db);
    const due = await entry(who.id);
    await entry(who.id, { right: "I am 20 years old", wrong: "I have 20 years", kind: "false_friend", rightKey: "i am 20 years old" });
    await entry(who.id, { right: "later one", rightKey: "later one", due: new Date(Date.now() + 86_400_000) }); // not due
    await entry(who.id, { right: "dismissed one", rightKey: "dismissed one", dismissedAt: new Date() });
    const id = await open(who);
    expect((await focusOf(id)).map((item) => item.right).sort()).toEqual(["I am 20 years old", "people are"]);
    expect((await focusOf(id)).find((item) => item.right === "people are")).toEqual({
      entryId: due.id,
      kind: "grammar",
      wrong: "people is",
      right: "people are",
    });

    await say(who, id, "Hello Nika");
    const prompt = await lastSystemPrompt();
    expect(prompt).toContain("PRACTICE FOCUS");
    expect(prompt).toContain('"people are" (the learner once said "people is")');
    expect(prompt).toContain('"I am 20 years old"');
    expect(prompt).not.toContain("later one");
    expect(prompt).not.toContain("dismissed one");
    expect(prompt).toMatch(/recast once/);
    expect(prompt).toMatch(/Never list these mistakes/);

    // Conversa ao vivo reads the same focus in its one statement.
    const before = world.queryCount();
    const live = await loadLiveContext(db, who.id, id);
    expect(world.queryCount() - before).toBe(1);
    expect(live!.instructions).toContain('"people are" (the learner once said "people is")');
    expect(live!.focus).toHaveLength(2);

    const fresh = await insertLearner(db);
    const none = await open(fresh);
    expect(await focusOf(none)).toEqual([]);
    await say(fresh, none, "Hello Nika");
    expect(await lastSystemPrompt()).not.toContain("PRACTICE FOCUS");
    expect((await loadLiveContext(db, fresh.id, none))!.instructions).not.toContain("PRACTICE FOCUS");
  });

  it("the level test brings nothing back", async () => {
    const who = await insertLearner(db);
    await entry(who.id);
    const test = await call(() =>
      startAndRedirect(args(request("/english-level-test", { jar: who.jar }), world.ctx()), modeTarget("english-test"), { id: who.id } as never),
    );
    const id = /\?c=([0-9a-f-]{36})$/.exec(test.location ?? "")![1]!;
    expect(await focusOf(id)).toEqual([]);
  });

  it("a review that sees an entry used right is an FSRS Good and a sighting, once per conversation", async () => {
    const who = await insertLearner(db);
    const due = await entry(who.id);
    const before = await memoryOf(due.id);
    const id = await open(who);

    await scriptReview({ mistakes: [], used_correctly: [0] });
    const turn = await say(who, id, "People are really friendly here");
    const [review] = await reviews();
    expect(review!.body.messages[0]!.content).toContain('0. "people are" (once said as "people is")');
    const after = await memoryOf(due.id);
    expect(after.reps).toBe(before.reps + 1);
    expect(after.lastReview).not.toBeNull();
    expect(after.due.getTime()).toBeGreaterThan(Date.now());
    expect(await sightingsOf(due.id, "used_right")).toEqual([{ conversationId: id, messageId: turn.userMessageId }]);

    // Used right again in the same conversation: no second Good.
    await scriptReview({ mistakes: [], used_correctly: [0, 0] });
    await say(who, id, "Those people are nice");
    expect((await memoryOf(due.id)).reps).toBe(before.reps + 1);
    expect(await sightingsOf(due.id, "used_right")).toHaveLength(1);
  });

  it("the fake's own review finds a focus entry's right form in the learner's text (and not the wrong one)", async () => {
    const who = await insertLearner(db);
    const due = await entry(who.id);
    const id = await open(who);
    await say(who, id, "People is late and people are tired"); // both forms: not used right
    expect(await sightingsOf(due.id, "used_right")).toEqual([]);
    const later = await open(who);
    const turn = await say(who, later, "Some people are late");
    expect(await sightingsOf(due.id, "used_right")).toEqual([{ conversationId: later, messageId: turn.userMessageId }]);
  });

  it("a malformed used_correctly stores nothing extra; an entry made again in the same turn is not used right", async () => {
    const who = await insertLearner(db, { credits: 30 });
    const due = await entry(who.id);
    const before = await memoryOf(due.id);
    const id = await open(who);
    const mistake = {
      wrong: "people is",
      right: "people are",
      kind: "grammar",
      explanation: "People já é plural em inglês: use are.",
      alternatives: ["people was", "peoples is", "people be"],
    };
    for (const used of [[1], [-1], ["0"], "0", [0.5], { 0: true }, Array.from({ length: 11 }, () => 0)]) {
      await scriptReview({ mistakes: [], used_correctly: used });
      await say(who, id, "People are nice");
    }
    await scriptReview('{"mistakes": [], "used_correctly": [0'); // malformed JSON
    await say(who, id, "People are nice");
    expect(await memoryOf(due.id)).toEqual(before);
    expect(await sightingsOf(due.id, "used_right")).toEqual([]);

    // The mistakes of an answer with a broken used_correctly still count; the entry made again is not used right.
    await scriptReview({ mistakes: [mistake], used_correctly: [7] });
    await say(who, id, "people is nice");
    await scriptReview({ mistakes: [mistake], used_correctly: [0] });
    await say(who, id, "people is nice, people are kind");
    const after = await memoryOf(due.id);
    expect([after.count, after.reps, after.lastReview]).toEqual([3, before.reps, null]);
    expect(await sightingsOf(due.id, "used_right")).toEqual([]);
    expect(await sightingsOf(due.id, "made")).toHaveLength(2);
  });
});

describe("Resumo da conversa", () => {
  const report = (who: TestLearner, conversationId: string) =>
    call<ConversationReport>(() =>
      loadConversationReport(args(request(`/conversas/${conversationId}/resumo`, { jar: who.jar }), world.ctx(), { conversationId })),
    );

  it("shows the turns, the live minutes, the corrections with their turn and the entries used right", async () => {
    const who = await insertLearner(db);
    const due = await entry(who.id, {
      right: "I am 20 years old",
      wrong: "I have 20 years",
      kind: "false_friend",
      rightKey: "i am 20 years old",
    });
    const id = await open(who);
    const first = await say(who, id, "Hello! people is nice here");
    await say(who, id, "I am 20 years old and people is fun");
    const [session] = await db.insert(liveSessions).values({ userId: who.id, conversationId: id, creditsPerMinute: 1 }).returning();
    await db.insert(liveMinutes).values([
      { sessionId: session!.id, minute: 0, ref: crypto.randomUUID(), userId: who.id, credits: 1, status: "used" },
      { sessionId: session!.id, minute: 1, ref: crypto.randomUUID(), userId: who.id, credits: 1, status: "used" },
      { sessionId: session!.id, minute: 2, ref: crypto.randomUUID(), userId: who.id, credits: 1, status: "refunded" },
    ]);
    // Another conversation's mistake is not this one's.
    await say(who, await open(who), "I have 30 years");

    const shown = await report(who, id);
    expect(shown.status).toBe(200);
    const used = (await sightingsOf(due.id, "used_right"))[0]!;
    expect(shown.data).toEqual({
      conversationId: id,
      title: "Tópico em Inglês",
      startedAt: expect.any(String),
      conversationHref: `/chat-with-nika/english?c=${id}`,
      backTo: "/chat-with-nika",
      backLabel: "Voltar aos modos",
      turns: 2,
      liveMinutes: 2,
      corrections: [
        {
          entryId: expect.any(String),
          kind: "grammar",
          wrong: "people is",
          right: "people are",
          explanation: "People já é plural em inglês: use are.",
          times: 2,
          href: `/chat-with-nika/english?c=${id}#m-${first.userMessageId}`,
        },
      ],
      focus: [
        {
          entryId: due.id,
          wrong: "I have 20 years",
          right: "I am 20 years old",
          usedRight: true,
          href: `/chat-with-nika/english?c=${id}#m-${used.messageId}`,
        },
      ],
    });
  });

  it("reads the page in at most 2 statements: the session's and the report's", async () => {
    const who = await insertLearner(db);
    await entry(who.id);
    const id = await open(who);
    await say(who, id, "I have 20 years");
    await report(who, id); // the first page load may also refresh the session
    const before = world.queryCount();
    expect((await report(who, id)).data.corrections).toHaveLength(1);
    const statements = world.queryCount() - before;
    expect(statements).toBeLessThanOrEqual(2);
    console.info(`/conversas/:id/resumo: ${statements} statements`);
  });

  it("a conversation without a learner turn is an empty report; a lesson's links its lesson", async () => {
    const who = await insertLearner(db);
    const id = await open(who, "game");
    expect((await report(who, id)).data).toMatchObject({ turns: 0, liveMinutes: 0, corrections: [], focus: [], title: "Game" });

    const [mod] = await db.insert(modules).values({ title: "Módulo Resumo", orderIndex: 7 }).returning();
    const [lesson] = await db.insert(lessons).values({ moduleId: mod!.id, title: "Past simple", orderIndex: 3 }).returning();
    const [practice] = await db.insert(chatConversations).values({ userId: who.id, mode: "lesson", lessonId: lesson!.id }).returning();
    expect((await report(who, practice!.id)).data).toMatchObject({
      title: "Past simple",
      conversationHref: `/chat/lesson/M07A03?c=${practice!.id}`,
      backTo: `/courses/lessons/${lesson!.id}`,
      backLabel: "Voltar à aula",
    });
  });

  it("is 404 for another learner's conversation and for a malformed id", async () => {
    const owner = await insertLearner(db);
    const other = await insertLearner(db);
    const id = await open(owner);
    await say(owner, id, "people is nice");
    expect((await report(other, id)).status).toBe(404);
    expect((await report(owner, "not-a-uuid")).status).toBe(404);
    expect((await report(owner, crypto.randomUUID())).status).toBe(404);
    expect((await report(owner, id)).status).toBe(200);
  });
});

describe("the chat page", () => {
  it("links the conversation's report", async () => {
    const who = await insertLearner(db);
    const id = await open(who);
    const page = await call<{ reportHref: string }>(() =>
      modeRoute.loader(args(request(`/chat-with-nika/english?c=${id}`, { jar: who.jar }), world.ctx(), { mode: "english" })),
    );
    expect(page.data.reportHref).toBe(`/conversas/${id}/resumo`);
  });
});
