// Every finished learning action records its activity, on the server, through the real forms and endpoints: a lesson
// completed, a flashcard game and a Revisão finished, a pronunciation attempt scored (more for a new best), a chat
// exchange (text and voice, with and without JavaScript), a level test finished. Each with the server's points and
// the action's own id as ref — so a repeated or concurrent request counts once — and none from a field of the form.
// (Live-conversation minutes are checked in live.test.ts, which runs the relay in workerd.)
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { and, eq, sql } from "drizzle-orm";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { chatMessages } from "~/features/conversation/tables";
import { lessons, modules } from "~/features/courses/tables";
import type { FlashcardActionData } from "~/features/flashcards/page.server";
import { flashcardQuestions } from "~/features/flashcards/tables";
import { pronunciationLevels } from "~/features/pronunciation/tables";
import { encodeWav } from "~/lib/audio/wav";
import * as chatModeRoute from "~/routes/_app+/_chat+/chat-with-nika.$mode";
import * as levelTestRoute from "~/routes/_app+/_chat+/english-level-test";
import * as gameRoute from "~/routes/_app+/_labs+/flashcard-v2.$gameId";
import * as pickerRoute from "~/routes/_app+/_labs+/flashcard-v2._index";
import * as pronunciationRoute from "~/routes/_app+/_labs+/pronunciation-game.$level";
import * as lessonRoute from "~/routes/_app+/courses+/lessons.$lessonId";
import * as greetRoute from "~/routes/resources+/chat.$conversationId.greet";
import * as messagesRoute from "~/routes/resources+/chat.$conversationId.messages";
import { ACTIVITY_POINTS, NEW_BEST_BONUS } from "~/server/activity.server";
import { rowsOf, type Database } from "~/server/db.server";
import { users } from "~/server/schema";
import { useChatWorld } from "./chat-world";
import { freePort } from "./fake-upstream";
import { args, call, insertLearner, multipart, request, type Part, type TestLearner } from "./harness";

const PORT = await freePort();
const world = useChatWorld(PORT, "activity-hooks-openai-key");
let db: Database;
beforeAll(() => {
  db = world.db;
});
beforeEach(async () => {
  await db.execute(sql`update app_config set config_value = true where config_key like 'feature_%'`);
});

const ctx = () => world.ctx();
const learner = (credits = 20) => insertLearner(db, { credits });

type Activity = { kind: string; ref: string; points: number };
const activitiesOf = async (userId: string): Promise<Activity[]> =>
  rowsOf<Activity>(await db.execute(sql`select kind, ref, points from activities where user_id = ${userId} order by created_at, id`)).map(
    (row) => ({ kind: row.kind, ref: row.ref, points: Number(row.points) }),
  );

/** What a learner might add to any form, hoping to set their own points. */
const FORGED = { points: "999", kind: "level_test", ref: "forged", day: "2020-01-01", at: "2020-01-01T00:00:00Z" };

function post(path: string, who: TestLearner, body: FormData | Record<string, string>) {
  const headers = new Headers({ Cookie: who.jar.header() });
  let payload: BodyInit;
  if (body instanceof FormData) payload = body;
  else {
    payload = new URLSearchParams(body);
    headers.set("Content-Type", "application/x-www-form-urlencoded");
  }
  return new Request(`http://nika.test${path}`, { method: "POST", headers, body: payload });
}

// ——— a lesson ———

describe("a lesson completed", () => {
  let lessonIds: string[];
  beforeAll(async () => {
    const [mod] = await db.insert(modules).values({ title: "Módulo do hábito", orderIndex: 70, available: "yes" }).returning();
    const rows = await db
      .insert(lessons)
      .values([1, 2, 3].map((orderIndex) => ({ moduleId: mod!.id, title: `Aula ${orderIndex}`, orderIndex, videoUrl: "https://youtu.be/x" })))
      .returning({ id: lessons.id });
    lessonIds = rows.map((row) => row.id);
  });
  const complete = (who: TestLearner, lessonId: string, extra: Record<string, string> = {}) =>
    call(() =>
      lessonRoute.action(
        args(request(`/courses/lessons/${lessonId}`, { form: { intent: "complete", ...extra }, jar: who.jar }), ctx(), { lessonId }),
      ),
    );

  it("records lesson_completed once per lesson, with the server's points whatever the form adds", async () => {
    const who = await learner();
    expect((await complete(who, lessonIds[0]!, FORGED)).status).toBe(302);
    expect(await activitiesOf(who.id)).toEqual([{ kind: "lesson_completed", ref: lessonIds[0], points: ACTIVITY_POINTS.lesson_completed }]);
    expect((await complete(who, lessonIds[0]!)).status).toBe(302); // the same lesson again: no new activity
    expect(await activitiesOf(who.id)).toHaveLength(1);
    expect((await complete(who, lessonIds[1]!)).status).toBe(302);
    expect((await activitiesOf(who.id)).map((a) => a.ref)).toEqual([lessonIds[0], lessonIds[1]]);
  });

  it("two completions of one lesson at once count once", async () => {
    const who = await learner();
    const outcomes = await Promise.all([1, 2, 3].map(() => complete(who, lessonIds[2]!)));
    expect(outcomes.map((o) => o.status)).toEqual([302, 302, 302]);
    expect(await activitiesOf(who.id)).toEqual([{ kind: "lesson_completed", ref: lessonIds[2], points: 10 }]);
  });

  it("a recording that fails never fails the completion", async () => {
    const who = await learner();
    const logged: unknown[] = [];
    const original = console.error;
    console.error = (...values: unknown[]) => void logged.push(values);
    await db.execute(sql`alter table activities rename to activities_away`);
    try {
      expect((await complete(who, lessonIds[0]!)).status).toBe(302);
    } finally {
      await db.execute(sql`alter table activities_away rename to activities`);
      console.error = original;
    }
    expect(logged).toHaveLength(1);
    expect(String((logged[0] as unknown[])[0])).toContain("[activity]");
    const [stats] = await db.select({ lessonsWatched: users.lessonsWatched }).from(users).where(eq(users.id, who.id));
    expect(stats!.lessonsWatched).toBe(1);
    expect(await activitiesOf(who.id)).toEqual([]);
  });
});

// ——— flashcards ———

describe("a flashcard game and a Revisão finished", () => {
  const start = async (who: TestLearner, form: Record<string, string>) => {
    const outcome = await call(() => pickerRoute.action(args(request("/flashcard-v2?index", { jar: who.jar, form }), ctx())));
    expect(outcome.status).toBe(303);
    return /^\/flashcard-v2\/([0-9a-f-]{36})$/.exec(outcome.location ?? "")![1]!;
  };
  const answer = async (who: TestLearner, gameId: string, position: number, extra: Record<string, string> = {}) => {
    const [question] = await db
      .select({ cardId: flashcardQuestions.cardId })
      .from(flashcardQuestions)
      .where(and(eq(flashcardQuestions.gameId, gameId), eq(flashcardQuestions.position, position)));
    const form = { intent: "answer", position: String(position), optionId: question!.cardId!, ...extra };
    return call<FlashcardActionData>(() =>
      gameRoute.action(args(request(`/flashcard-v2/${gameId}`, { jar: who.jar, form }), ctx(), { gameId })),
    );
  };
  const questionCount = async (gameId: string) =>
    (await db.select({ position: flashcardQuestions.position }).from(flashcardQuestions).where(eq(flashcardQuestions.gameId, gameId))).length;

  it("counts a category game when its last answer finishes it, once — the same answer posted again adds nothing", async () => {
    const who = await learner();
    const gameId = await start(who, { intent: "start", category: "animais", ...FORGED });
    expect(await activitiesOf(who.id)).toEqual([]); // started is not finished
    const count = await questionCount(gameId);
    for (let position = 0; position < count - 1; position++) expect((await answer(who, gameId, position, FORGED)).status).toBe(303);
    expect(await activitiesOf(who.id)).toEqual([]);
    expect((await answer(who, gameId, count - 1, { ...FORGED, via: "fetch" })).data).toMatchObject({ finished: true });
    expect(await activitiesOf(who.id)).toEqual([{ kind: "flashcard_game", ref: gameId, points: ACTIVITY_POINTS.flashcard_game }]);
    const again = await answer(who, gameId, count - 1);
    expect([again.status, again.data.code]).toEqual([409, "already_answered"]);
    expect(await activitiesOf(who.id)).toHaveLength(1);
  });

  it("the last answer posted twice at once finishes the game once; a Revisão is review_game", async () => {
    const who = await learner();
    const gameId = await start(who, { intent: "start", category: "roupas" });
    const count = await questionCount(gameId);
    for (let position = 0; position < count - 1; position++) await answer(who, gameId, position);
    const both = await Promise.all([answer(who, gameId, count - 1), answer(who, gameId, count - 1)]);
    expect(both.map((o) => o.status).sort()).toEqual([303, 409]);
    expect(await activitiesOf(who.id)).toEqual([{ kind: "flashcard_game", ref: gameId, points: 5 }]);

    const reviewId = await start(who, { intent: "review", ...FORGED });
    const reviewCount = await questionCount(reviewId);
    for (let position = 0; position < reviewCount; position++) await answer(who, reviewId, position, FORGED);
    expect((await activitiesOf(who.id)).slice(1)).toEqual([{ kind: "review_game", ref: reviewId, points: ACTIVITY_POINTS.review_game }]);
  });
});

// ——— pronunciation ———

describe("a pronunciation attempt scored", () => {
  let sentence: string;
  beforeAll(async () => {
    sentence = (await db.select().from(pronunciationLevels).where(eq(pronunciationLevels.level, 1)))[0]!.sentence;
  });
  const say = (text: string) => fetch(`${world.api}/__ai/config?transcript=${encodeURIComponent(text)}`, { method: "POST" });
  const samples = new Float32Array(16_000).map((_, i) => 0.3 * Math.sin((2 * Math.PI * 220 * i) / 16_000));
  const audio: Part = { bytes: encodeWav(samples, 16_000), name: "gravacao.wav", type: "audio/wav" };
  const attempt = async (who: TestLearner, extra: Record<string, string> = {}) => {
    const outcome = await call(() =>
      pronunciationRoute.action(
        args(multipart("/pronunciation-game/1", who.jar, { intent: "attempt", audio, ...extra }), ctx(), { level: "1" }),
      ),
    );
    expect(outcome.status).toBe(303);
    return /attempt=([0-9a-f-]{36})/.exec(outcome.location ?? "")![1]!;
  };

  it("earns the bonus for a new best (the first score at a level is one), not for an equal or worse one", async () => {
    const who = await learner();
    const base = ACTIVITY_POINTS.pronunciation_attempt;
    await say("banana");
    const weak = await attempt(who, FORGED); // the first score of the level: a best
    await say(sentence);
    const good = await attempt(who, FORGED); // beats it
    const equal = await attempt(who); // the same score: not a new best
    await say("banana");
    const worse = await attempt(who);
    expect(await activitiesOf(who.id)).toEqual([
      { kind: "pronunciation_attempt", ref: weak, points: base + NEW_BEST_BONUS },
      { kind: "pronunciation_attempt", ref: good, points: base + NEW_BEST_BONUS },
      { kind: "pronunciation_attempt", ref: equal, points: base },
      { kind: "pronunciation_attempt", ref: worse, points: base },
    ]);
  });

  it("a failed attempt (refunded) records nothing", async () => {
    const who = await learner();
    await world.hook("mode=error&status=500");
    const outcome = await call(() =>
      pronunciationRoute.action(args(multipart("/pronunciation-game/1", who.jar, { intent: "attempt", audio }), ctx(), { level: "1" })),
    );
    expect(outcome.status).toBe(502);
    expect(await activitiesOf(who.id)).toEqual([]);
  });
});

// ——— chat ———

describe("a chat exchange and a level test", () => {
  const open = async (who: TestLearner, mode = "english") => {
    const outcome = await call(() => chatModeRoute.loader(args(request(`/chat-with-nika/${mode}`, { jar: who.jar }), ctx(), { mode })));
    return /\?c=([0-9a-f-]{36})$/.exec(outcome.location ?? "")![1]!;
  };
  const learnerMessages = async (conversationId: string) =>
    (await db.select().from(chatMessages).where(eq(chatMessages.conversationId, conversationId)).orderBy(chatMessages.createdAt)).filter(
      (m) => m.role === "user",
    );

  it("a learner message answered is chat_exchange with the message's id: without JavaScript, streamed, and spoken; the greeting is not", async () => {
    const who = await learner();
    const id = await open(who);
    const greeting = await greetRoute.action(args(post(`/resources/chat/${id}/greet`, who, {}), ctx(), { conversationId: id }));
    expect(await greeting.text()).toContain("event: done");
    expect(await activitiesOf(who.id)).toEqual([]);

    const noJs = await call(() =>
      chatModeRoute.action(
        args(post(`/chat-with-nika/english?c=${id}`, who, { intent: "send", text: "I like rain", ...FORGED }), ctx(), { mode: "english" }),
      ),
    );
    expect(noJs.status).toBe(302);
    const form = new FormData();
    form.set("text", "Good morning");
    for (const [name, value] of Object.entries(FORGED)) form.set(name, value);
    const streamed = await messagesRoute.action(args(post(`/resources/chat/${id}/messages`, who, form), ctx(), { conversationId: id }));
    expect(await streamed.text()).toContain("event: done");
    const voice = new FormData();
    voice.set(
      "audio",
      new Blob(
        [
          encodeWav(
            new Float32Array(4000).map((_, i) => Math.sin(i / 5) * 0.3),
            16000,
          ),
        ],
        { type: "audio/wav" },
      ),
      "v.wav",
    );
    const spoken = await messagesRoute.action(args(post(`/resources/chat/${id}/messages`, who, voice), ctx(), { conversationId: id }));
    expect(await spoken.text()).toContain("event: done");

    const sent = await learnerMessages(id);
    expect(sent).toHaveLength(3);
    expect(await activitiesOf(who.id)).toEqual(sent.map((m) => ({ kind: "chat_exchange", ref: m.id, points: ACTIVITY_POINTS.chat_exchange })));
  });

  it("a message Nika could not answer is no exchange", async () => {
    const who = await learner();
    const id = await open(who);
    await world.hook("mode=error");
    const failed = await call(() =>
      chatModeRoute.action(args(post(`/chat-with-nika/english?c=${id}`, who, { intent: "send", text: "Hello?" }), ctx(), { mode: "english" })),
    );
    expect(failed.status).toBe(502);
    expect(await activitiesOf(who.id)).toEqual([]);
  });

  it("the level test counts once per test when its marker sets the level, besides the exchange", async () => {
    const who = await learner();
    const started = await call(() => levelTestRoute.action(args(post("/english-level-test", who, { intent: "new", ...FORGED }), ctx(), {})));
    const id = /\?c=([0-9a-f-]{36})/.exec(started.location ?? "")![1]!;
    // The fake model echoes the learner: its reply carries the marker, twice in this test.
    for (const text of ["[[NIKA_LEVEL:b1]]", "[[NIKA_LEVEL:b2]]"]) {
      const sent = await call(() =>
        levelTestRoute.action(args(post(`/english-level-test?c=${id}`, who, { intent: "send", text, ...FORGED }), ctx(), {})),
      );
      expect(sent.status).toBe(302);
    }
    const [level] = await db.select({ englishLevel: users.englishLevel }).from(users).where(eq(users.id, who.id));
    expect(level!.englishLevel).toBe("B2");
    const recorded = await activitiesOf(who.id);
    expect(recorded.filter((a) => a.kind === "level_test")).toEqual([{ kind: "level_test", ref: id, points: ACTIVITY_POINTS.level_test }]);
    expect(recorded.filter((a) => a.kind === "chat_exchange")).toHaveLength(2);
  });
});

// ——— no points from the browser ———

describe("points cannot be posted", () => {
  const sources = (dir: string): string[] =>
    readdirSync(dir).flatMap((name) => {
      const full = path.join(dir, name);
      if (statSync(full).isDirectory()) return sources(full);
      return /\.tsx?$/.test(name) ? [full] : [];
    });
  const app = sources("app").map((file) => ({ file, text: readFileSync(file, "utf8") }));

  it("no form schema or form read takes a `points` field, and only the activity module writes activities", () => {
    const readsPoints = app.filter(({ text }) => /\bpoints\s*:\s*z\.|\.get\(\s*["']points["']\s*\)/.test(text)).map((s) => s.file);
    expect(readsPoints).toEqual([]);
    const writes = app.filter(({ text }) => /insert\s+into\s+activities\b|\.insert\(\s*activities\s*\)/i.test(text)).map((s) => s.file);
    expect(writes).toEqual([path.join("app", "server", "activity.server.ts")]);
  });
});
