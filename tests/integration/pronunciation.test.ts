// The pronunciation game through its routes, on PGlite and a Miniflare R2 bucket, scored by our own
// alignment scorer over the fake upstream's OpenAI transcription protocol: the list (one query, best
// scores), the level page, an attempt end to end (credit, row, recording, result), every refusal
// (nothing spent), scorer failures (refunded), best scores that only go up, and 30 parallel attempts
// on 10 credits.
import { and, eq, sql } from "drizzle-orm";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { notebookEntries } from "~/features/notebook/tables";
import { failAttempt, pronunciationScorer, scoreAttempt, loadLevel, checkRecording } from "~/features/pronunciation/attempts.server";
import type { LevelPageData, PronunciationActionData } from "~/features/pronunciation/page.server";
import { pronunciationAttempts, pronunciationLevels } from "~/features/pronunciation/tables";
import type { TodayData } from "~/features/today/plan.server";
import { encodeWav } from "~/lib/audio/wav";
import * as homeRoute from "~/routes/_app+/_index";
import * as levelRoute from "~/routes/_app+/_labs+/pronunciation-game.$level";
import * as listRoute from "~/routes/_app+/_labs+/pronunciation-game._index";
import * as audioRoute from "~/routes/resources+/pronunciation-audio.$attemptId";
import { creditPeriod, getBalance } from "~/server/credits.server";
import type { Database } from "~/server/db.server";
import { appConfig, creditLedger, users } from "~/server/schema";
import { chunk, fmtChunk, listChunk, riffWave, toneChunk } from "../fixtures/wav";
import { useChatWorld } from "./chat-world";
import { freePort } from "./fake-upstream";
import { args, call, insertLearner, multipart, request, toastOf, type Part, type TestLearner } from "./harness";

const PORT = await freePort();
const world = useChatWorld(PORT, "pronunciation-openai-key");
let db: Database;
let levelOne: { sentence: string };
beforeAll(async () => {
  db = world.db;
  const [row] = await db.select().from(pronunciationLevels).where(eq(pronunciationLevels.level, 1));
  levelOne = { sentence: row!.sentence };
});
beforeEach(async () => {
  await db.update(appConfig).set({ configValue: true }).where(eq(appConfig.configKey, "feature_pronunciation"));
});

const ctx = (env: Record<string, unknown> = world.aiEnv) => world.ctx(env);
const say = (text: string) => fetch(`${world.api}/__ai/config?transcript=${encodeURIComponent(text)}`, { method: "POST" });

const learner = (credits = 10, accountType: "free" | "blocked" = "free") => insertLearner(db, { credits, accountType });
type Learner = TestLearner;

/** `seconds` of a quiet tone as 16 kHz mono 16-bit WAV (what the page's recorder sends). */
function wav(seconds = 1) {
  const samples = new Float32Array(Math.round(16_000 * seconds)).map((_, i) => 0.3 * Math.sin((2 * Math.PI * 220 * i) / 16_000));
  return encodeWav(samples, 16_000);
}
const audioPart = (bytes: Uint8Array = wav(), type = "audio/wav", name = "gravacao.wav"): Part => ({ bytes, name, type });

const openList = (who: Learner, env?: Record<string, unknown>) =>
  call<{ levels: { level: number; bestScore: number | null }[]; isAdmin: boolean }>(() =>
    listRoute.loader(args(request("/pronunciation-game", { jar: who.jar }), ctx(env))),
  );
const openLevel = (who: Learner, level: string, search = "", env?: Record<string, unknown>) =>
  call<LevelPageData>(() => levelRoute.loader(args(request(`/pronunciation-game/${level}${search}`, { jar: who.jar }), ctx(env), { level })));
const attempt = (who: Learner, level: string, audio: Part = audioPart(), env?: Record<string, unknown>) =>
  call<PronunciationActionData>(() =>
    levelRoute.action(args(multipart(`/pronunciation-game/${level}`, who.jar, { intent: "attempt", audio }), ctx(env), { level })),
  );

const ATTEMPT_LOCATION = /^\/pronunciation-game\/(\d+)\?attempt=([0-9a-f-]{36})#resultado$/;
const attemptsOf = (userId: string) => db.select().from(pronunciationAttempts).where(eq(pronunciationAttempts.userId, userId));
const formErrors = (outcome: { data: unknown }) => (outcome.data as PronunciationActionData).result.error?.[""];

describe("the list of levels", () => {
  it("shows the 100 levels without scores, in one query; signed out goes to /signin with the toast; the flag turns it off", async () => {
    const who = await learner();
    const page = await openList(who);
    expect(page.status).toBe(200);
    expect(page.data.levels.map((l) => l.level)).toEqual(Array.from({ length: 100 }, (_, i) => i + 1));
    expect(page.data.levels.every((l) => l.bestScore === null)).toBe(true);

    const anonymous = await call(() => listRoute.loader(args(request("/pronunciation-game"), ctx())));
    expect([anonymous.status, anonymous.location]).toEqual([302, "/signin?redirectTo=%2Fpronunciation-game"]);
    expect(await toastOf(anonymous)).toMatchObject({ type: "error", title: "Você precisa estar logado para jogar" });

    const blocked = await learner(10, "blocked");
    expect((await openList(blocked)).location).toBe("/blocked");

    await db.update(appConfig).set({ configValue: false }).where(eq(appConfig.configKey, "feature_pronunciation"));
    expect((await openList(who)).status).toBe(403);
  });

  it("reads the best scores of the 100 levels in one statement", async () => {
    const { db: counted, queryCount, resetQueryCount } = await import("./harness").then(async (h) => h.createTestDb());
    const [user] = await counted
      .insert(users)
      .values({ name: "Q", email: "q@example.com", monthlyCredits: 5, creditsPeriod: creditPeriod(new Date()) })
      .returning();
    const { loadLevelSummaries } = await import("~/features/pronunciation/attempts.server");
    resetQueryCount();
    const levels = await loadLevelSummaries(counted, user!.id);
    expect([levels.length, queryCount()]).toEqual([100, 1]);
  });
});

describe("a level page", () => {
  it("answers 404 for anything but 1–100, before any other work", async () => {
    const who = await learner();
    for (const level of ["0", "101", "abc", "01", "1.5", "-3"]) {
      expect((await openLevel(who, level)).status, level).toBe(404);
      expect((await attempt(who, level)).status, level).toBe(404);
    }
    // anonymous with a bad level: still a 404, not a redirect
    const anonymous = await call(() => levelRoute.loader(args(request("/pronunciation-game/abc"), ctx(), { level: "abc" })));
    expect(anonymous.status).toBe(404);
    expect(await getBalance(db, who.id)).toBe(10);
  });

  it("shows the sentence, translation, reference audio and band; says when no scorer is configured", async () => {
    const who = await learner();
    const page = await openLevel(who, "1");
    expect(page.status).toBe(200);
    expect(page.data.level).toMatchObject({ level: 1, sentence: levelOne.sentence, bestScore: null, attemptCount: 0 });
    expect(page.data.level.translation.length).toBeGreaterThan(0);
    expect(page.data.level.audioUrl).toMatch(/^\/content\/pronunciation\/.+\.mp3$/);
    expect(page.data.level.band.title.length).toBeGreaterThan(0);
    expect([page.data.attempt, page.data.unavailable]).toEqual([null, null]);

    const without = await openLevel(who, "1", "", {});
    expect(without.data.unavailable).toBe("scoring_unavailable");
    const refused = await attempt(who, "1", audioPart(), {});
    expect([refused.status, refused.data.code]).toEqual([503, "scoring_unavailable"]);
    expect(await getBalance(db, who.id)).toBe(10);
    expect(await attemptsOf(who.id)).toHaveLength(0);
  });
});

describe("an attempt", () => {
  it("spends 1 credit, scores every word, stores the recording for its owner and shows the result", async () => {
    const who = await learner();
    await say(levelOne.sentence);
    const posted = await attempt(who, "1");
    expect(posted.status).toBe(303);
    const [, level, attemptId] = ATTEMPT_LOCATION.exec(posted.location ?? "") ?? [];
    expect(level).toBe("1");
    expect(await getBalance(db, who.id)).toBe(9);

    const [row] = await attemptsOf(who.id);
    expect(row).toMatchObject({ id: attemptId, status: "scored", scorer: "alignment", level: 1, sentence: levelOne.sentence });
    expect(row!.overallScore).toBeGreaterThan(70);
    const spent = await db.select().from(creditLedger).where(eq(creditLedger.userId, who.id));
    expect(spent.map((e) => [e.delta, e.reason])).toEqual([[-1, "pronunciation"]]);

    const page = await openLevel(who, "1", `?attempt=${attemptId}`);
    const result = page.data.attempt!;
    const words = levelOne.sentence.split(/\s+/).length;
    expect(result.words).toHaveLength(words);
    expect(result.words.every((w) => w.errorType === "None" && w.tip === null)).toBe(true);
    expect([result.previousBest, page.data.level.bestScore, page.data.level.attemptCount]).toEqual([null, row!.overallScore, 1]);
    expect(result.recordingUrl).toBe(`/resources/pronunciation-audio/${attemptId}`);

    const served = await audioRoute.loader(
      args(request(`/resources/pronunciation-audio/${attemptId}`, { jar: who.jar }), ctx(), { attemptId: attemptId! }),
    );
    expect([served.status, served.headers.get("Content-Type")]).toEqual([200, "audio/wav"]);
    expect((await served.arrayBuffer()).byteLength).toBe(wav().byteLength);
    const other = await learner();
    const foreign = await audioRoute.loader(
      args(request(`/resources/pronunciation-audio/${attemptId}`, { jar: other.jar }), ctx(), { attemptId: attemptId! }),
    );
    expect(foreign.status).toBe(404);
    // another learner cannot see the result either
    expect((await openLevel(other, "1", `?attempt=${attemptId}`)).data.attempt).toBeNull();
  });

  it("marks a changed word and an omitted one, with a pt-BR tip", async () => {
    const who = await learner();
    const words = levelOne.sentence.replace(/[.,!?]/g, "").split(/\s+/);
    // the last word left out, the first replaced by a different word
    await say(["banana", ...words.slice(1, -1)].join(" "));
    const posted = await attempt(who, "1");
    const attemptId = ATTEMPT_LOCATION.exec(posted.location ?? "")![2]!;
    const result = (await openLevel(who, "1", `?attempt=${attemptId}`)).data.attempt!;
    const last = result.words.filter((w) => w.errorType !== "Insertion").at(-1)!;
    expect(last.errorType).toBe("Omission");
    expect(last.tip?.length).toBeGreaterThan(10);
    expect(
      result.words.some((w) => w.word.toLowerCase() === "banana" && w.errorType === "Insertion") || result.words[0]!.errorType !== "None",
    ).toBe(true);
    expect(result.completenessScore).toBeLessThan(100);
  });

  it("puts the words scored below 60 in Meu caderno once each, counting them again on the next attempt", async () => {
    const who = await learner();
    const words = levelOne.sentence.replace(/[.,!?]/g, "").split(/\s+/);
    await say(["banana", ...words.slice(1, -1)].join(" ")); // the first word replaced, the last left out
    const first = ATTEMPT_LOCATION.exec((await attempt(who, "1")).location ?? "")![2]!;
    const weak = (await openLevel(who, "1", `?attempt=${first}`)).data
      .attempt!.words.filter((w) => w.errorType !== "Insertion" && w.accuracyScore < 60)
      .map((w) => w.word.replace(/[.,!?]/g, ""));
    expect(weak.length).toBeGreaterThan(0);
    const entries = () =>
      db
        .select({ right: notebookEntries.right, count: notebookEntries.count, details: notebookEntries.details, source: notebookEntries.source })
        .from(notebookEntries)
        .where(eq(notebookEntries.userId, who.id));
    const stored = await entries();
    expect(stored.map((e) => e.right).sort()).toEqual([...new Set(weak)].sort());
    expect(stored[0]).toMatchObject({ count: 1, source: "pronunciation", details: { level: 1, sentence: levelOne.sentence } });
    expect(stored.every((e) => (e.details?.score ?? 100) < 60)).toBe(true);

    await attempt(who, "1"); // the same recording again: the same words, counted twice
    expect((await entries()).map((e) => e.count)).toEqual(stored.map(() => 2));
  });

  it("refuses bad audio with a 4xx and pt-BR words, spending nothing", async () => {
    const who = await learner();
    const long = wav(31);
    const cases: [Part, number, string][] = [
      [{ bytes: new Uint8Array(), name: "", type: "application/octet-stream" }, 400, "empty_audio"],
      [audioPart(wav(1).slice(0, 1000)), 400, "audio_too_short"],
      [audioPart(new TextEncoder().encode("não sou um áudio ".repeat(200)), "audio/wav", "falso.wav"), 415, "not_audio"],
      [audioPart(long), 413, "audio_too_long"],
      // a phone's WAV is judged by its sound, not its size: metadata before the data chunk is not sound
      [audioPart(riffWave(listChunk("gravado no celular"), fmtChunk(), toneChunk(31))), 413, "audio_too_long"],
      [audioPart(riffWave(fmtChunk(), listChunk("só metadados ".repeat(100)), chunk("data", new Uint8Array(0)))), 400, "empty_audio"],
      [audioPart(riffWave(chunk("LIST", new Uint8Array(2000)))), 415, "not_audio"],
    ];
    for (const [part, status, code] of cases) {
      const refused = await attempt(who, "1", part);
      expect([refused.status, refused.data.code], code).toEqual([status, code]);
      expect(formErrors(refused)![0]).toBe("Erro ao processar áudio");
    }
    const text = await call(() =>
      levelRoute.action(args(request("/pronunciation-game/1", { jar: who.jar, form: { intent: "attempt" } }), ctx(), { level: "1" })),
    );
    expect(text.status).toBe(400);
    expect(await getBalance(db, who.id)).toBe(10);
    expect(checkRecording(riffWave(fmtChunk(), listChunk("quase trinta segundos ".repeat(100)), toneChunk(29.95))).ok).toBe(true);
    expect(await attemptsOf(who.id)).toHaveLength(0);
  });

  it("answers credits_exhausted (402) at zero credits and creates nothing", async () => {
    const who = await learner(0);
    await say(levelOne.sentence);
    const refused = await attempt(who, "1");
    expect([refused.status, refused.data.code]).toEqual([402, "credits_exhausted"]);
    expect(await attemptsOf(who.id)).toHaveLength(0);
  });

  it("refunds the credit when the scorer fails or answers nonsense, and records the attempt as failed", async () => {
    const who = await learner();
    await world.hook("mode=error&status=500");
    const failed = await attempt(who, "1");
    expect([failed.status, failed.data.code]).toEqual([502, "scorer_failed"]);
    await world.hook("mode=malformed");
    const malformed = await attempt(who, "1");
    expect([malformed.status, malformed.data.code]).toEqual([502, "scorer_failed"]);
    expect(await getBalance(db, who.id)).toBe(10);
    expect((await attemptsOf(who.id)).map((a) => a.status)).toEqual(["failed", "failed"]);
    const ledger = await db.select().from(creditLedger).where(eq(creditLedger.userId, who.id));
    expect(ledger.map((e) => e.delta).sort()).toEqual([-1, -1, 1, 1]);
    // nothing of a failed attempt is kept in R2
    const listed = await world.media.bucket.list({ prefix: `pronunciation-attempts/${who.id}/` });
    expect(listed.objects).toHaveLength(0);
  });

  it("refunds when the scorer does not answer in time", async () => {
    const who = await learner();
    const level = (await loadLevel(db, who.id, 1))!;
    const scorer = pronunciationScorer(ctx(), { audioTimeoutMs: 300 })!;
    await world.hook("mode=slow&delay=2000");
    const checked = checkRecording(wav());
    if (!checked.ok) throw new Error("the test recording is refused");
    const outcome = await scoreAttempt(ctx(), who.id, level, checked.recording, scorer);
    expect(outcome).toEqual({ ok: false, code: "scorer_timeout" });
    expect(await getBalance(db, who.id)).toBe(10);
    // refunding twice gives nothing more
    const [row] = await attemptsOf(who.id);
    expect(await failAttempt(db, row!.id)).toBeNull();
    expect(await getBalance(db, who.id)).toBe(10);
  });

  it("scores an attempt whose recording R2 refused: the score is kept without a replay, the credit spent once", async () => {
    const who = await learner(4);
    await say(levelOne.sentence);
    const level = (await loadLevel(db, who.id, 1))!;
    const failingPuts = new Proxy(world.media.bucket, {
      get: (bucket, name) => (name === "put" ? () => Promise.reject(new Error("R2 unavailable")) : Reflect.get(bucket, name, bucket)),
    });
    const context = world.ctx({ ...world.aiEnv, MEDIA: failingPuts });
    const checked = checkRecording(wav());
    if (!checked.ok) throw new Error("the test recording is refused");
    const outcome = await scoreAttempt(context, who.id, level, checked.recording, pronunciationScorer(context)!);
    expect(outcome).toMatchObject({ ok: true, balance: 3 });
    const [row] = await attemptsOf(who.id);
    expect(row).toMatchObject({ status: "scored", audioKey: null });
    expect(row!.overallScore).toBeGreaterThan(0);
    expect(await getBalance(db, who.id)).toBe(3);
    const listed = await world.media.bucket.list({ prefix: `pronunciation-attempts/${who.id}/` });
    expect(listed.objects).toHaveLength(0);
  });

  it("keeps the best score: a worse attempt does not lower it", async () => {
    const who = await learner();
    await say(levelOne.sentence);
    const good = ATTEMPT_LOCATION.exec((await attempt(who, "1")).location ?? "")![2]!;
    await say("banana");
    const bad = ATTEMPT_LOCATION.exec((await attempt(who, "1")).location ?? "")![2]!;
    const [goodRow] = await db.select().from(pronunciationAttempts).where(eq(pronunciationAttempts.id, good));
    const [badRow] = await db.select().from(pronunciationAttempts).where(eq(pronunciationAttempts.id, bad));
    expect(badRow!.overallScore!).toBeLessThan(goodRow!.overallScore!);

    const list = await openList(who);
    expect(list.data.levels[0]!.bestScore).toBe(goodRow!.overallScore);
    const badPage = await openLevel(who, "1", `?attempt=${bad}`);
    expect([badPage.data.attempt!.previousBest, badPage.data.level.bestScore]).toEqual([goodRow!.overallScore, goodRow!.overallScore]);
  });

  it("is ticked in Hoje on the next load of /, even when one during the scoring kept the plan", async () => {
    const who = await learner();
    await say(levelOne.sentence);
    const isolate = ctx(); // one isolate: every request below gets its env object
    const inIsolate = () => ({ ...isolate, memo: new Map<string, unknown>() });
    const pronunciationItem = async () => {
      const page = await call<{ today: TodayData }>(() => homeRoute.loader(args(request("/", { jar: who.jar }), inIsolate())));
      return page.data.today.items.find((item) => item.key === "pronunciation");
    };
    expect(await pronunciationItem()).toMatchObject({ done: false });
    await world.hook("mode=slow&delay=1500"); // the scorer takes its time (a slow machine too), so a load of / comes meanwhile
    const scoring = call(() =>
      levelRoute.action(
        args(multipart("/pronunciation-game/1", who.jar, { intent: "attempt", audio: audioPart() }), inIsolate(), { level: "1" }),
      ),
    );
    await new Promise((r) => setTimeout(r, 150));
    expect(await pronunciationItem()).toMatchObject({ done: false }); // kept by this isolate, before the score
    expect((await scoring).status).toBe(303);
    expect(await pronunciationItem()).toMatchObject({ done: true });
  });

  it("scores exactly 10 of 30 parallel attempts on 10 credits", async () => {
    const who = await learner(10);
    await say(levelOne.sentence);
    const outcomes = await Promise.all(Array.from({ length: 30 }, () => attempt(who, "1")));
    const statuses = outcomes.map((o) => o.status);
    expect([statuses.filter((s) => s === 303).length, statuses.filter((s) => s === 402).length]).toEqual([10, 20]);
    expect(await getBalance(db, who.id)).toBe(0);
    const scored = await db
      .select({ count: sql<number>`count(*)::int` })
      .from(pronunciationAttempts)
      .where(and(eq(pronunciationAttempts.userId, who.id), eq(pronunciationAttempts.status, "scored")));
    expect(scored[0]!.count).toBe(10);
  });
});

describe("the automation webhooks of existing deployments (spec §7)", () => {
  const hooks = () => ({
    ...world.aiEnv,
    NIKA_USER_LEVEL_WEBHOOK_URL: `${world.api}/webhook/user-level`,
    NIKA_PRONUNCIATION_SOURCE_WEBHOOK_URL: `${world.api}/webhook/pronunciation-game-source`,
  });
  const script = (path: string, body: unknown, status = 200) =>
    fetch(`${world.api}/__ai/reply?path=${encodeURIComponent(path)}&status=${status}`, { method: "POST", body: JSON.stringify(body) });

  it("user-level: its best scores join ours on the list, the higher one wins", async () => {
    const who = await learner();
    await say(levelOne.sentence);
    await attempt(who, "1");
    const [ours] = await attemptsOf(who.id);
    await script("/webhook/user-level", [{ best_scores_map: { "1": 5, "2": 45.5, "250": 99 } }]);
    const list = await openList(who, hooks());
    expect(list.data.levels.slice(0, 3).map((l) => l.bestScore)).toEqual([ours!.overallScore, 45.5, null]);
    const sent = ((await (await fetch(`${world.api}/__ai/requests`)).json()) as { path: string; body: Record<string, unknown> }[]).filter(
      (r) => r.path === "/webhook/user-level",
    );
    expect(sent.at(-1)!.body).toEqual({ user_id: who.id, "no-cache": true });
  });

  it("user-level: a reply of the wrong shape, three times, is the list's error with 'Invalid webhook response'", async () => {
    const who = await learner();
    for (let i = 0; i < 3; i++) await script("/webhook/user-level", { nope: true });
    const failed = await openList(who, hooks());
    expect([failed.status, failed.data]).toEqual([502, { error: "Invalid webhook response", code: "webhook_failed" }]);
  });

  it("pronunciation-game-source: its sentence is the one shown and scored; '0 monthly credits' opens the dialog and spends nothing", async () => {
    const who = await learner();
    const page = await openLevel(who, "7", "", hooks());
    expect([page.data.level.level, page.data.level.sentence]).toEqual([7, "The big dog is on the bed."]);

    await say("The big dog is on the bed.");
    const scored = await attempt(who, "7", audioPart(), hooks());
    expect(scored.status).toBe(303);
    const [row] = await attemptsOf(who.id);
    expect([row!.sentence, row!.level]).toEqual(["The big dog is on the bed.", 7]);

    await script("/webhook/pronunciation-game-source", [{ text: "0 monthly credits" }]);
    expect((await openLevel(who, "7", "", hooks())).data.unavailable).toBe("credits_exhausted");
    await script("/webhook/pronunciation-game-source", [{ text: "0 monthly credits" }]);
    const refused = await attempt(who, "7", audioPart(), hooks());
    expect([refused.status, refused.data.code]).toEqual([402, "credits_exhausted"]);
    expect(await getBalance(db, who.id)).toBe(9);
  });
});
