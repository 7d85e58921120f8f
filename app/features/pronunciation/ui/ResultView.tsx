// An attempt's result: the overall score in a 160 px ring, the four (five with prosody) scores, every
// word coloured by its score with its ErrorType, advice tier and a tip for the level's sound, the
// learner's recording next to the reference, and 'Tentar novamente' / 'Próximo nível'.
import { Link } from "react-router";
import { AudioPlayer } from "~/components/AudioPlayer";
import { buttonVariants } from "~/components/button";
import { cn } from "~/components/cn";
import { ArrowRightIcon, RefreshIcon, SparkleIcon } from "~/components/icons";
import type { LevelPageData } from "../page.server";
import { levelPath, nextLevelPath, shownScore, tierOf } from "../scores";
import { ADVICE_TEXT, ERROR_TYPE_TEXT, PRONUNCIATION_TEXT as T } from "../texts";
import { ScoreRing, TIER_SURFACE, TIER_TEXT } from "./ScoreRing";

type Attempt = NonNullable<LevelPageData["attempt"]>;

export function ResultView({ level, attempt }: { level: LevelPageData["level"]; attempt: Attempt }) {
  const newBest = attempt.previousBest === null || attempt.overallScore > attempt.previousBest;
  const scores: [string, number][] = [
    [T.scores.accuracy, attempt.accuracyScore],
    [T.scores.fluency, attempt.fluencyScore],
    [T.scores.completeness, attempt.completenessScore],
    [T.scores.pronunciation, attempt.pronunciationScore],
  ];
  if (attempt.prosodyScore !== null) scores.push([T.scores.prosody, attempt.prosodyScore]);

  return (
    <section id="resultado" aria-labelledby="result-title" tabIndex={-1} className="mt-6 outline-none" data-testid="pronunciation-result">
      <h2 id="result-title" className="sr-only">
        {T.steps.results}
      </h2>
      <div className="flex flex-col items-center gap-5 rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-200 sm:flex-row sm:items-center dark:bg-night-900 dark:ring-night-700">
        <ScoreRing score={attempt.overallScore} size="result" label={`${T.overall}: ${shownScore(attempt.overallScore)}`} className="shrink-0">
          <span className="flex flex-col items-center">
            <span className={cn("text-4xl font-bold", TIER_TEXT[tierOf(attempt.overallScore)])} data-testid="overall-score">
              {shownScore(attempt.overallScore)}
            </span>
            <span className="text-xs font-medium text-slate-700 dark:text-slate-300">{T.overall}</span>
          </span>
        </ScoreRing>
        <div className="w-full">
          {newBest ? (
            <p className="mb-3 flex items-center gap-2 font-semibold text-emerald-800 dark:text-emerald-200">
              <SparkleIcon size={18} />
              {T.newBest}
            </p>
          ) : level.bestScore !== null ? (
            <p className="mb-3 text-sm text-slate-700 dark:text-slate-300">{T.best(shownScore(level.bestScore))}</p>
          ) : null}
          <dl className="grid grid-cols-2 gap-3">
            {scores.map(([name, score]) => (
              <div key={name}>
                <dt className="text-sm text-slate-700 dark:text-slate-300">{name}</dt>
                <dd className="flex items-center gap-2">
                  <span className={cn("w-8 font-bold", TIER_TEXT[tierOf(score)])}>{shownScore(score)}</span>
                  <span aria-hidden="true" className="h-2 flex-1 overflow-hidden rounded-full bg-slate-200 dark:bg-night-700">
                    <span
                      className={cn("block h-full rounded-full bg-current", TIER_TEXT[tierOf(score)])}
                      style={{ width: `${Math.min(100, Math.max(0, score))}%` }}
                    />
                  </span>
                </dd>
              </div>
            ))}
          </dl>
        </div>
      </div>

      <h3 className="mt-6 font-semibold">{T.words}</h3>
      <ul className="mt-2 flex flex-col gap-2" aria-label={T.words}>
        {attempt.words.map((word, i) => {
          const tier = tierOf(word.accuracyScore);
          const struck = word.errorType === "Omission" || word.errorType === "Insertion";
          return (
            <li
              key={`${i}-${word.word}`}
              data-testid="word-result"
              data-error-type={word.errorType}
              className={cn("rounded-xl p-3 ring-1", TIER_SURFACE[tier])}
            >
              <div className="flex flex-wrap items-baseline gap-x-3 gap-y-1">
                <span lang="en" className={cn("text-lg font-bold", TIER_TEXT[tier], struck && "line-through decoration-2")}>
                  {word.word}
                </span>
                <span className={cn("text-sm font-semibold", TIER_TEXT[tier])}>{shownScore(word.accuracyScore)}</span>
                <span className="text-sm text-slate-800 dark:text-slate-100">{ERROR_TYPE_TEXT[word.errorType]}</span>
                <span className="text-sm text-slate-700 dark:text-slate-300">{ADVICE_TEXT[tier]}</span>
              </div>
              {word.tip ? <p className="mt-1 text-sm text-slate-800 dark:text-slate-100">{word.tip}</p> : null}
            </li>
          );
        })}
      </ul>
      {attempt.recognizedText ? (
        <p className="mt-3 text-sm text-slate-700 dark:text-slate-300">
          {T.heard}: <span lang="en">“{attempt.recognizedText}”</span>
        </p>
      ) : null}

      <div className="mt-6 grid gap-4 sm:grid-cols-2">
        {attempt.recordingUrl ? (
          <div>
            <p className="text-sm font-medium text-slate-700 dark:text-slate-300">{T.yourRecording}</p>
            <AudioPlayer id={`attempt-${attempt.id}`} src={attempt.recordingUrl} text={attempt.sentence} lang="en" playLabel={T.yourRecording} />
          </div>
        ) : null}
        <div>
          <p className="text-sm font-medium text-slate-700 dark:text-slate-300">{T.reference}</p>
          <AudioPlayer id={`reference-${level.level}`} src={level.audioUrl} text={level.sentence} lang="en" playLabel={T.reference} />
        </div>
      </div>

      <div className="mt-6 flex flex-col gap-2 sm:flex-row">
        <Link to={levelPath(level.level)} className={buttonVariants({ variant: "secondary", size: "lg" })}>
          <RefreshIcon size={18} />
          {T.tryAgain}
        </Link>
        <Link to={nextLevelPath(level.level)} className={buttonVariants({ size: "lg" })}>
          {T.nextLevel}
          <ArrowRightIcon size={18} />
        </Link>
      </div>
    </section>
  );
}
