// Loaders and actions of /pronunciation-game (the 100 levels) and /pronunciation-game/<level> (one level,
// its attempts and their results). Order of checks (decision 0010): path → signed in → body → existence →
// flag → scorer and audio type → credits → scorer. An attempt is a multipart form post (the page's
// recorder or, without JavaScript, a file input); success redirects (303) to `?attempt=<id>`, the result.
import type { SubmissionResult } from "@conform-to/react";
import { data, redirect, type AppLoadContext } from "react-router";
import { z } from "zod";
import { isUuid } from "~/lib/ids";
import { requireUser } from "~/server/auth.server";
import { requireFeature } from "~/server/flags.server";
import { FORM_OVERHEAD_BYTES, notFound, parseForm, refusal } from "~/server/request.server";
import {
  bestOf,
  checkRecording,
  loadAttempt,
  loadLevel,
  loadLevelSummaries,
  MAX_ATTEMPT_UPLOAD_BYTES,
  pronunciationScorer,
  scoreAttempt,
  type AttemptView,
  type LevelView,
} from "./attempts.server";
import { bandOf, tipFor } from "./content.server";
import { levelPath, parseLevel } from "./scores";
import { fetchBestScores, fetchLevelFromSource, ProviderError } from "./scoring/index.server";
import { PRONUNCIATION_TEXT, REFUSAL_STATUS, REFUSALS, type PronunciationRefusal } from "./texts";

type Args = { request: Request; context: AppLoadContext; params: Record<string, string | undefined> };

/** What a refused attempt answers (the page shows [title, description] and branches on `code`). */
export type PronunciationActionData = { result: SubmissionResult<string[]>; code: PronunciationRefusal };

type Reply = { reply: (options: { formErrors: string[] }) => SubmissionResult<string[]> };

function refuse(submission: Reply, code: PronunciationRefusal) {
  const result = submission.reply({ formErrors: [...REFUSALS[code]] });
  return data({ result, code } satisfies PronunciationActionData, { status: REFUSAL_STATUS[code], headers: { "Cache-Control": "no-store" } });
}

const levelNotFound = () => notFound(PRONUNCIATION_TEXT.levelNotFound);

function requireLevelParam(params: Args["params"]): number {
  const level = parseLevel(params.level);
  if (level === null) throw levelNotFound();
  return level;
}

// ——— the list ———

export async function loadLevelsPage({ request, context }: Args) {
  const user = await requireUser(request, context);
  await requireFeature(context, "feature_pronunciation");
  const [levels, remoteBest] = await Promise.all([
    loadLevelSummaries(context.db, user.id),
    fetchBestScores(context.cloudflare.env, user.id).catch(loadFailure(PRONUNCIATION_TEXT.levelsLoadFailure)),
  ]);
  // Existing deployments (spec §7 user-level webhook): their best scores count too; ours only go up.
  const merged = remoteBest ? levels.map((l) => ({ ...l, bestScore: bestOf(l.bestScore, remoteBest.get(l.level) ?? null) })) : levels;
  return data({ levels: merged, isAdmin: user.isAdmin }, { headers: { "Cache-Control": "private, no-store" } });
}

/** A webhook that failed while loading a page: the page's error screen with the spec §8 message (a 502/504). */
function loadFailure(otherMessage: string) {
  return (error: unknown): never => {
    if (!(error instanceof ProviderError)) throw error;
    const message =
      error.kind === "timeout"
        ? PRONUNCIATION_TEXT.loadTimeout
        : error.kind === "bad_response"
          ? PRONUNCIATION_TEXT.invalidWebhook
          : otherMessage;
    throw error.kind === "timeout" ? refusal(504, message, "webhook_timeout") : refusal(502, message, "webhook_failed");
  };
}

/**
 * The level as the learner plays it: ours, or — for existing deployments (spec §7
 * pronunciation-game-source) — the sentence and audio the source webhook gives, which may also say the
 * learner has no credits left ('0 monthly credits').
 */
async function playableLevel(context: AppLoadContext, userId: string, level: LevelView): Promise<LevelView | "credits_exhausted"> {
  const source = await fetchLevelFromSource(context.cloudflare.env, { userId, level: level.level }).catch(
    loadFailure(PRONUNCIATION_TEXT.levelLoadError),
  );
  if (!source) return level;
  if (source.creditsExhausted) return "credits_exhausted";
  return { ...level, sentence: source.sentence, audioUrl: source.audioUrl ?? level.audioUrl };
}

// ——— a level ———

export type WordResult = {
  word: string;
  accuracyScore: number;
  errorType: AttemptView["words"][number]["errorType"];
  /** A pt-BR tip for a mispronounced or omitted word (the level's band when the word has its sound). */
  tip: string | null;
};

export type LevelPageData = {
  level: {
    level: number;
    sentence: string;
    translation: string;
    audioUrl: string | null;
    bestScore: number | null;
    attemptCount: number;
    band: { title: string; sound: string };
  };
  attempt: (Omit<AttemptView, "words"> & { words: WordResult[]; recordingUrl: string | null }) | null;
  /** Null when scoring works; otherwise why the level cannot be played now (nothing is spent). */
  unavailable: "scoring_unavailable" | "credits_exhausted" | null;
};

export async function loadLevelPage({ request, context, params }: Args): Promise<LevelPageData> {
  const levelNumber = requireLevelParam(params);
  const user = await requireUser(request, context);
  const stored = await loadLevel(context.db, user.id, levelNumber);
  if (!stored) throw levelNotFound();
  await requireFeature(context, "feature_pronunciation");
  const playable = await playableLevel(context, user.id, stored);
  const level = playable === "credits_exhausted" ? stored : playable;
  const attemptId = new URL(request.url).searchParams.get("attempt");
  const attempt = attemptId && isUuid(attemptId) ? await loadAttempt(context.db, user.id, level.level, attemptId.toLowerCase()) : null;
  const band = bandOf(level.band);
  return {
    level: {
      level: level.level,
      sentence: level.sentence,
      translation: level.translation,
      audioUrl: level.audioUrl,
      bestScore: level.bestScore,
      attemptCount: level.attemptCount,
      band: { title: band.title, sound: band.sound },
    },
    attempt: attempt
      ? {
          ...attempt,
          words: attempt.words.map((word) => ({
            ...word,
            tip: word.errorType === "Mispronunciation" || word.errorType === "Omission" ? tipFor(level.band, word.word) : null,
          })),
          recordingUrl: attempt.hasRecording ? `/resources/pronunciation-audio/${attempt.id}` : null,
        }
      : null,
    unavailable: playable === "credits_exhausted" ? "credits_exhausted" : pronunciationScorer(context) ? null : "scoring_unavailable",
  };
}

/** An attempt: the recording as the `audio` file of a multipart form. */
const attemptSchema = z.object({
  intent: z.literal("attempt").optional(),
  audio: z.instanceof(File, { error: "Grave ou escolha um arquivo de áudio." }),
});

export async function levelAction({ request, context, params }: Args) {
  const levelNumber = requireLevelParam(params);
  const user = await requireUser(request, context);
  const submission = await parseForm(request, attemptSchema, { maxBytes: MAX_ATTEMPT_UPLOAD_BYTES + FORM_OVERHEAD_BYTES });
  if (submission.status !== "success") return refuse(submission, submission.payload.audio ? "invalid" : "empty_audio");
  const checked = checkRecording(new Uint8Array(await submission.value.audio.arrayBuffer()));
  if (!checked.ok) return refuse(submission, checked.code);
  const stored = await loadLevel(context.db, user.id, levelNumber);
  if (!stored) throw levelNotFound();
  await requireFeature(context, "feature_pronunciation");
  const scorer = pronunciationScorer(context);
  if (!scorer) return refuse(submission, "scoring_unavailable");
  if (!scorer.acceptedTypes.includes(checked.recording.mimeType)) return refuse(submission, "unsupported_audio");
  const level = await playableLevel(context, user.id, stored);
  if (level === "credits_exhausted") return refuse(submission, "credits_exhausted");
  const outcome = await scoreAttempt(context, user.id, level, checked.recording, scorer);
  if (!outcome.ok) return refuse(submission, outcome.code);
  throw redirect(`${levelPath(level.level)}?attempt=${outcome.attemptId}#resultado`, 303);
}
