// The pronunciation game's data: the level list with best scores (one query), a level, and an attempt —
// its credit and its row in one statement, then the scorer, then the result or the refund.
// Best scores are derived from the scored attempts; nothing else stores them.
import { sql } from "drizzle-orm";
import type { AppLoadContext } from "react-router";
import { notePronunciationAttempt } from "~/features/notebook";
import { MIN_AUDIO_BYTES } from "~/lib/audio/validate";
import { readWav } from "~/lib/audio/wav";
import { ACTIVITY_POINTS, NEW_BEST_BONUS, recordActivitySafely } from "~/server/activity.server";
import { ProviderError, type ProviderOptions } from "~/server/ai/index.server";
import { forgetUserSessions } from "~/server/auth.server";
import { ABANDONED_AFTER_MS, refundRows, spendCreditsThen, type AbandonedSpends } from "~/server/credits.server";
import { jsonValue, rowsOf, type DbOrTx } from "~/server/db.server";
import { deleteQuietly, mediaBucket, PRONUNCIATION_ATTEMPTS_FOLDER, putObject, sniffAudio } from "~/server/storage.server";
import { levelAudioUrl } from "./content.server";
import {
  getPronunciationScorer,
  isCreditsExhausted,
  UnsupportedAudioError,
  type PronouncedWord,
  type PronunciationAssessment,
  type PronunciationScorer,
} from "./scoring/index.server";
import type { PronunciationRefusal } from "./texts";

/** Ledger reasons of an attempt's credit and of its refund. */
export const PRONUNCIATION_CREDIT_REASON = "pronunciation";
export const PRONUNCIATION_REFUND_REASON = "refund:pronunciation";

/** An attempt is at most 30 s of speech. */
export const MAX_ATTEMPT_SECONDS = 30;
/** The upload cap of an attempt's form (a 30 s WAV at 48 kHz stereo is 5.8 MB). */
export const MAX_ATTEMPT_UPLOAD_BYTES = 8 * 1024 * 1024;
/** Compressed recordings carry no cheap duration: 30 s at 320 kbps is the most they may weigh. */
export const MAX_COMPRESSED_BYTES = (MAX_ATTEMPT_SECONDS * 320_000) / 8;

// ——— reading ———

export type LevelSummary = { level: number; bestScore: number | null };

/** The higher of two best scores (either may be missing). */
export const bestOf = (a: number | null, b: number | null) => (a === null ? b : b === null ? a : Math.max(a, b));

/** The 100 levels with the learner's best score of each, in one statement. */
export async function loadLevelSummaries(db: DbOrTx, userId: string): Promise<LevelSummary[]> {
  const rows = rowsOf(
    await db.execute(sql`
      select l.level, max(a.overall_score) as best
      from pronunciation_levels l
      left join pronunciation_attempts a on a.level = l.level and a.user_id = ${userId} and a.status = 'scored'
      group by l.level
      order by l.level`),
  );
  return rows.map((row) => ({ level: Number(row.level), bestScore: row.best === null ? null : Number(row.best) }));
}

export type LevelView = {
  level: number;
  band: number;
  sentence: string;
  translation: string;
  audioUrl: string | null;
  bestScore: number | null;
  attemptCount: number;
};

/** One level with the learner's best score and number of scored attempts; null when it does not exist. */
export async function loadLevel(db: DbOrTx, userId: string, level: number): Promise<LevelView | null> {
  const row = rowsOf(
    await db.execute(sql`
      select l.level, l.band, l.sentence, l.translation, l.audio_asset, l.audio_key,
        (select max(a.overall_score) from pronunciation_attempts a
          where a.user_id = ${userId} and a.level = l.level and a.status = 'scored') as best,
        (select count(*)::int from pronunciation_attempts a
          where a.user_id = ${userId} and a.level = l.level and a.status = 'scored') as attempts
      from pronunciation_levels l where l.level = ${level}`),
  )[0];
  if (!row) return null;
  return {
    level: Number(row.level),
    band: Number(row.band),
    sentence: String(row.sentence),
    translation: String(row.translation),
    audioUrl: levelAudioUrl({ audioAsset: (row.audio_asset as string | null) ?? null, audioKey: (row.audio_key as string | null) ?? null }),
    bestScore: row.best === null ? null : Number(row.best),
    attemptCount: Number(row.attempts),
  };
}

export type AttemptView = {
  id: string;
  level: number;
  sentence: string;
  overallScore: number;
  accuracyScore: number;
  fluencyScore: number;
  completenessScore: number;
  pronunciationScore: number;
  prosodyScore: number | null;
  words: PronouncedWord[];
  recognizedText: string | null;
  hasRecording: boolean;
  scorer: string;
  /** The best score of the level before this attempt (null: the first scored one). */
  previousBest: number | null;
};

/** A scored attempt of this learner at this level, with the best score before it; null otherwise. */
export async function loadAttempt(db: DbOrTx, userId: string, level: number, attemptId: string): Promise<AttemptView | null> {
  const row = rowsOf(
    await db.execute(sql`
      select a.*,
        (select max(b.overall_score) from pronunciation_attempts b
          where b.user_id = a.user_id and b.level = a.level and b.status = 'scored'
            and (b.created_at, b.id) < (a.created_at, a.id)) as previous_best
      from pronunciation_attempts a
      where a.id = ${attemptId} and a.user_id = ${userId} and a.level = ${level} and a.status = 'scored'`),
  )[0];
  if (!row) return null;
  const num = (value: unknown) => Number(value);
  return {
    id: String(row.id),
    level: num(row.level),
    sentence: String(row.sentence),
    overallScore: num(row.overall_score),
    accuracyScore: num(row.accuracy_score),
    fluencyScore: num(row.fluency_score),
    completenessScore: num(row.completeness_score),
    pronunciationScore: num(row.pronunciation_score),
    prosodyScore: row.prosody_score === null ? null : num(row.prosody_score),
    words: jsonValue<PronouncedWord[]>(row.words),
    recognizedText: (row.recognized_text as string | null) ?? null,
    hasRecording: Boolean(row.audio_key),
    scorer: String(row.scorer),
    previousBest: row.previous_best === null ? null : num(row.previous_best),
  };
}

/** The R2 key of an attempt's recording, only for its owner. */
export async function attemptRecordingKey(db: DbOrTx, userId: string, attemptId: string): Promise<string | null> {
  const row = rowsOf(await db.execute(sql`select audio_key from pronunciation_attempts where id = ${attemptId} and user_id = ${userId}`))[0];
  return (row?.audio_key as string | null | undefined) ?? null;
}

// ——— the recording ———

export type Recording = { bytes: Uint8Array; mimeType: string; ext: string };
export type RecordingCheck = { ok: true; recording: Recording } | { ok: false; code: PronunciationRefusal };

/**
 * The rules of an attempt's audio, before anything is spent: not empty, at least 1 024 bytes, audio by
 * its content (not by its declared type), and at most 30 s (a WAV by its sound, which must not be empty
 * either; compressed audio by size).
 */
export function checkRecording(bytes: Uint8Array): RecordingCheck {
  if (bytes.byteLength === 0) return { ok: false, code: "empty_audio" };
  if (bytes.byteLength < MIN_AUDIO_BYTES) return { ok: false, code: "audio_too_short" };
  const sniffed = sniffAudio(bytes);
  if (!sniffed) return { ok: false, code: "not_audio" };
  if (sniffed.mime === "audio/wav") {
    // By the data chunk, not the file's size: a phone's WAV may carry metadata chunks before or after it.
    const wav = readWav(bytes);
    if (!wav) return { ok: false, code: "not_audio" };
    if (wav.seconds === 0) return { ok: false, code: "empty_audio" };
    if (wav.seconds > MAX_ATTEMPT_SECONDS) return { ok: false, code: "audio_too_long" };
  } else if (bytes.byteLength > MAX_COMPRESSED_BYTES) {
    return { ok: false, code: "audio_too_long" };
  }
  return { ok: true, recording: { bytes, mimeType: sniffed.mime, ext: sniffed.ext } };
}

// ——— an attempt ———

export type AttemptOutcome = { ok: true; attemptId: string; balance: number } | { ok: false; code: PronunciationRefusal };

export function pronunciationScorer(context: AppLoadContext, options?: ProviderOptions): PronunciationScorer | null {
  return getPronunciationScorer(context.cloudflare.env, options);
}

export type AssessmentOutcome =
  | { ok: true; assessment: PronunciationAssessment }
  | { ok: false; code: "credits_exhausted" | "unsupported_audio" | "scorer_timeout" | "scorer_failed" };

/**
 * The scorer's verdict on a checked recording, spending nothing: its failures as refusal codes (the webhook's "no
 * credits", audio it cannot read, a timeout, any other provider failure); anything else is thrown. An attempt
 * (scoreAttempt) and a Revisão pronunciation card (which the game's one credit covers) both score through it.
 */
export async function assessRecording(
  scorer: PronunciationScorer,
  recording: Recording,
  reference: { referenceText: string; level: number; userId: string },
): Promise<AssessmentOutcome> {
  try {
    return { ok: true, assessment: await scorer.assess({ bytes: recording.bytes, mimeType: recording.mimeType, ...reference }) };
  } catch (error) {
    if (isCreditsExhausted(error)) return { ok: false, code: "credits_exhausted" };
    if (error instanceof UnsupportedAudioError) return { ok: false, code: "unsupported_audio" };
    if (error instanceof ProviderError) {
      console.error(`pronunciation: scorer ${scorer.name} failed`, error.message);
      return { ok: false, code: error.kind === "timeout" ? "scorer_timeout" : "scorer_failed" };
    }
    throw error;
  }
}

/**
 * Spends 1 credit and creates the attempt in one statement (never one without the other), asks the
 * scorer, stores the recording for replay, and records the result. A failed scorer marks the attempt
 * failed and refunds the credit in one statement. The caller has checked the level, the flag, the
 * recording and that `scorer` reads its type. A scored attempt is the day's activity, with the bonus when it
 * beats the learner's best at this level (as the result screen says "new best").
 */
export async function scoreAttempt(
  context: AppLoadContext,
  userId: string,
  level: LevelView,
  recording: Recording,
  scorer: PronunciationScorer,
): Promise<AttemptOutcome> {
  const { spend, row } = await spendCreditsThen(
    context.db,
    userId,
    1,
    PRONUNCIATION_CREDIT_REASON,
    sql`attempt as (
        insert into pronunciation_attempts (user_id, level, sentence, scorer)
        select id, ${level.level}, ${level.sentence}, ${scorer.name} from spent
        returning id
      ), outcome as (select id from attempt)`,
  );
  if (!spend.ok || !row) return { ok: false, code: "credits_exhausted" };
  const attemptId = String(row.id);

  const audioKey = `${PRONUNCIATION_ATTEMPTS_FOLDER}/${userId}/${attemptId}.${recording.ext}`;
  const stored = putObject(mediaBucket(context), audioKey, recording.bytes, { contentType: recording.mimeType }).then(
    () => true,
    (error: unknown) => {
      console.error("pronunciation: the recording was not stored", error);
      return false;
    },
  );
  const assessed = await assessRecording(scorer, recording, { referenceText: level.sentence, level: level.level, userId });
  if (!assessed.ok) {
    await failAttempt(context.db, attemptId);
    if (await stored) await deleteQuietly(mediaBucket(context), [audioKey]);
    return assessed;
  }
  const { assessment } = assessed;
  const newBest = await recordScore(context.db, attemptId, assessment, (await stored) ? audioKey : null);
  if (newBest !== null) {
    await notePronunciationAttempt(context.db, { userId, level: level.level, sentence: level.sentence, words: assessment.words });
    const points = ACTIVITY_POINTS.pronunciation_attempt + (newBest ? NEW_BEST_BONUS : 0);
    await recordActivitySafely(context.db, { userId, kind: "pronunciation_attempt", ref: attemptId, points });
    // A page load during the scoring may have kept the learner's "Hoje" without this attempt (keptWithSession).
    forgetUserSessions(context, userId);
  }
  return { ok: true, attemptId, balance: spend.balance };
}

/**
 * Stores the score; returns whether it beats the best scored before this attempt at its level (loadAttempt's
 * previousBest: none yet counts as a new best), or null when the attempt was no longer scoring.
 */
async function recordScore(db: DbOrTx, attemptId: string, result: PronunciationAssessment, audioKey: string | null): Promise<boolean | null> {
  const [row] = rowsOf<{ new_best: boolean }>(
    await db.execute(sql`
      update pronunciation_attempts a set status = 'scored',
        overall_score = ${result.overallScore}, accuracy_score = ${result.accuracyScore},
        fluency_score = ${result.fluencyScore}, completeness_score = ${result.completenessScore},
        pronunciation_score = ${result.pronunciationScore}, prosody_score = ${result.prosodyScore ?? null},
        words = ${JSON.stringify(result.words)}::jsonb, recognized_text = ${result.recognizedText},
        audio_key = ${audioKey}
      where a.id = ${attemptId} and a.status = 'scoring'
      returning a.overall_score > coalesce((select max(b.overall_score) from pronunciation_attempts b
        where b.user_id = a.user_id and b.level = a.level and b.status = 'scored'
          and (b.created_at, b.id) < (a.created_at, a.id)), -1) as new_best`),
  );
  return row ? Boolean(row.new_best) : null;
}

/** Marks a scoring attempt failed and gives its credit back, in one statement (a second call does nothing). */
export async function failAttempt(db: DbOrTx, attemptId: string): Promise<number | null> {
  const failed = sql`
    update pronunciation_attempts set status = 'failed' where id = ${attemptId} and status = 'scoring'
    returning user_id, id as ref, 1 as credits`;
  const { balances } = await refundRows(db, failed, PRONUNCIATION_REFUND_REASON);
  return balances.values().next().value ?? null;
}

/** An attempt still `scoring` long after it began (its request died before scoring ended): failed, its credit back. */
export const abandonedAttempts: AbandonedSpends = {
  name: "attempts",
  rows: (now) => sql`
    update pronunciation_attempts set status = 'failed'
    where status = 'scoring' and created_at < ${new Date(now.getTime() - ABANDONED_AFTER_MS)}
    returning user_id, id as ref, 1 as credits`,
};
