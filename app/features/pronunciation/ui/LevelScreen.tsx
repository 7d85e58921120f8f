// /pronunciation-game/<level>: the sentence, its translation (after the first attempt or on demand), the
// reference audio at 0.5/0.75/1×, and the steps recording → processing → results (spec §2, §4).
// Recording: with JavaScript the app's one recorder (useVoiceRecorder: 16 kHz mono WAV, microphone
// errors, pauses other playback) posts the WAV; without it, a file input (`capture`: the phone's own
// recorder) in the same multipart form. Both reach the same action.
import { useMemo } from "react";
import { Form, isRouteErrorResponse, Link, useLocation, useNavigation, useRouteError, useSubmit } from "react-router";
import { AudioPlayer } from "~/components/AudioPlayer";
import { Button, buttonVariants } from "~/components/button";
import { cn } from "~/components/cn";
import { ErrorScreen, errorDetails } from "~/components/ErrorScreen";
import { ArrowLeftIcon, MicIcon, RefreshIcon, UploadIcon } from "~/components/icons";
import { NoticeBox } from "~/components/notice";
import { Refusal, type RefusalData } from "~/components/Refusal";
import { useVoiceRecorder } from "~/lib/audio/use-voice-recorder";
import { errorMessage } from "~/lib/errors";
import { useHydrated } from "~/lib/use-hydrated";
import type { LevelPageData, PronunciationActionData } from "../page.server";
import { levelPath, PRONUNCIATION_PATH } from "../scores";
import { PRONUNCIATION_TEXT as T, REFUSALS } from "../texts";
import { ResultView } from "./ResultView";

type Step = "recording" | "processing" | "results";

export function LevelScreen({ page, actionData }: { page: LevelPageData; actionData: PronunciationActionData | undefined }) {
  const { level, attempt, unavailable } = page;
  const navigation = useNavigation();
  const submitting = navigation.state !== "idle" && navigation.formMethod?.toUpperCase() === "POST";
  const step: Step = submitting ? "processing" : attempt ? "results" : "recording";
  const [unavailableTitle, unavailableText] = unavailable ? REFUSALS[unavailable] : [];
  // Out of credits before any attempt (the level source said so): the same dialog as a refused attempt.
  const noCredits = useMemo<RefusalData | undefined>(
    () =>
      unavailable === "credits_exhausted"
        ? { result: { status: "error", error: { "": [...REFUSALS.credits_exhausted] } }, code: "credits_exhausted" }
        : undefined,
    [unavailable],
  );

  return (
    <div className="mx-auto w-full max-w-3xl px-4 py-6 sm:px-6 sm:py-10">
      <Link
        to={PRONUNCIATION_PATH}
        className="inline-flex items-center gap-1.5 rounded-lg py-1 pr-2 text-sm font-semibold text-slate-700 hover:text-slate-950 dark:text-slate-200 dark:hover:text-white"
      >
        <ArrowLeftIcon size={18} />
        {T.backToLevels}
      </Link>

      <header className="mt-3">
        <p className="text-sm font-semibold text-indigo-700 dark:text-indigo-300">
          {T.level(level.level)} · {level.band.title}
        </p>
        <h1 className="mt-2 text-2xl leading-snug font-bold tracking-tight sm:text-3xl" lang="en">
          {level.sentence}
        </h1>
        <details className="group mt-2" open={level.attemptCount > 0 || attempt !== null}>
          <summary className="cursor-pointer text-sm font-semibold text-indigo-700 hover:underline dark:text-indigo-300">
            {T.translation}
          </summary>
          <p className="mt-1 text-slate-700 dark:text-slate-200">{level.translation}</p>
        </details>
        <div className="mt-3">
          <p className="text-sm font-medium text-slate-700 dark:text-slate-300">{T.reference}</p>
          <AudioPlayer id={`level-${level.level}`} src={level.audioUrl} text={level.sentence} lang="en" playLabel={T.listen} />
        </div>
      </header>

      <Steps step={step} />

      <Refusal data={actionData ?? noCredits} backTo={PRONUNCIATION_PATH} closeTo={PRONUNCIATION_PATH} className="mt-4" />

      {step === "processing" ? (
        <p
          role="status"
          className="mt-6 flex items-center gap-3 rounded-2xl bg-indigo-50 p-4 font-medium text-indigo-900 dark:bg-indigo-400/10 dark:text-indigo-100"
        >
          <span aria-hidden="true" className="size-5 animate-spin rounded-full border-2 border-indigo-600 border-t-transparent" />
          {T.processing}
        </p>
      ) : step === "results" && attempt ? (
        <ResultView level={level} attempt={attempt} />
      ) : unavailable === "scoring_unavailable" ? (
        <NoticeBox notice={{ tone: "info", title: unavailableTitle!, description: unavailableText }} className="mt-6" />
      ) : unavailable ? null : (
        <RecordPanel level={level.level} />
      )}
    </div>
  );
}

function Steps({ step }: { step: Step }) {
  const order: Step[] = ["recording", "processing", "results"];
  const at = order.indexOf(step);
  return (
    <ol className="mt-6 flex flex-wrap items-center gap-x-2 gap-y-1 text-sm" aria-label="Etapas">
      {order.map((name, i) => (
        <li key={name} aria-current={name === step ? "step" : undefined} className="flex items-center gap-2">
          <span
            className={cn(
              "grid size-7 place-items-center rounded-full text-xs font-bold",
              i <= at ? "bg-indigo-600 text-white" : "bg-slate-200 text-slate-700 dark:bg-night-700 dark:text-slate-200",
            )}
          >
            {i + 1}
          </span>
          <span className={cn("font-medium", name === step ? "text-slate-950 dark:text-white" : "text-slate-600 dark:text-slate-300")}>
            {T.steps[name]}
          </span>
          {i < order.length - 1 ? <span aria-hidden="true" className="h-px w-3 bg-slate-300 sm:w-6 dark:bg-night-600" /> : null}
        </li>
      ))}
    </ol>
  );
}

function RecordPanel({ level }: { level: number }) {
  const hydrated = useHydrated();
  return (
    <section
      aria-label={T.steps.recording}
      className="mt-6 rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-6 dark:bg-night-900 dark:ring-night-700"
    >
      {hydrated ? <Recorder level={level} /> : null}
      <Form
        method="post"
        encType="multipart/form-data"
        action={levelPath(level)}
        className={cn(hydrated && "mt-5 border-t border-slate-200 pt-4 dark:border-night-700")}
      >
        <input type="hidden" name="intent" value="attempt" />
        <label htmlFor="pronunciation-audio" className="block font-semibold">
          {T.uploadLabel}
        </label>
        <p id="pronunciation-audio-hint" className="mt-1 text-sm text-slate-700 dark:text-slate-300">
          {T.uploadHint}
        </p>
        <input
          id="pronunciation-audio"
          name="audio"
          type="file"
          accept="audio/*"
          capture="user"
          required
          aria-describedby="pronunciation-audio-hint"
          className="mt-3 block w-full text-sm file:mr-3 file:rounded-lg file:border-0 file:bg-indigo-50 file:px-3 file:py-2 file:font-semibold file:text-indigo-800 dark:file:bg-indigo-400/15 dark:file:text-indigo-100"
        />
        <button type="submit" className={buttonVariants({ variant: hydrated ? "secondary" : "primary", className: "mt-3" })}>
          <UploadIcon size={18} />
          {T.send}
        </button>
      </Form>
    </section>
  );
}

/** The recorder island: record, stop, and the WAV goes to the level's action. */
function Recorder({ level }: { level: number }) {
  const submit = useSubmit();
  const voice = useVoiceRecorder((wav) => {
    const form = new FormData();
    form.set("intent", "attempt");
    form.set("audio", new File([wav], "gravacao.wav", { type: "audio/wav" }));
    submit(form, { method: "post", encType: "multipart/form-data", action: levelPath(level) });
  });
  return (
    <div className="flex flex-col items-center gap-3 text-center">
      {voice.recording ? (
        <>
          <p role="status" className="flex items-center gap-2 font-medium text-rose-700 dark:text-rose-300">
            <span aria-hidden="true" className="size-2.5 animate-pulse rounded-full bg-rose-600" />
            Gravando… {voice.seconds}s
          </p>
          <Button size="lg" variant="danger" onClick={() => void voice.stop()}>
            {T.stop}
          </Button>
        </>
      ) : (
        <Button size="lg" onClick={() => void voice.start()} disabled={voice.converting} aria-busy={voice.converting || undefined}>
          <MicIcon size={20} />
          {T.record}
        </Button>
      )}
      <p className="text-sm text-slate-700 dark:text-slate-300">Fale a frase inteira. Cada tentativa usa 1 crédito.</p>
    </div>
  );
}

/**
 * The level's error views: 'Nível não encontrado' (404) with the way back to the list; a disabled
 * feature as everywhere; anything else 'Erro ao carregar nível' with its message and a retry.
 */
export function LevelErrorBoundary() {
  const error = useRouteError();
  const { pathname } = useLocation();
  if (isRouteErrorResponse(error) && error.status === 404) {
    return (
      <div className="mx-auto flex min-h-[60dvh] max-w-lg flex-col items-center justify-center px-6 py-16 text-center">
        <h1 className="text-2xl font-bold tracking-tight sm:text-3xl">{T.levelNotFound}</h1>
        <p className="mt-3 text-slate-700 dark:text-slate-300">{T.levelNotFoundText}</p>
        <Link to={PRONUNCIATION_PATH} className={buttonVariants({ size: "lg", className: "mt-8" })}>
          <ArrowLeftIcon size={18} />
          {T.backToLevels}
        </Link>
      </div>
    );
  }
  if (isRouteErrorResponse(error) && error.status < 500) return <ErrorScreen error={error} />;
  const message = isRouteErrorResponse(error) ? errorDetails(error).message : errorMessage(error);
  return (
    <div role="alert" className="mx-auto flex max-w-md flex-col items-center px-4 py-12 text-center">
      <h1 className="text-xl font-bold tracking-tight">{T.levelLoadError}</h1>
      <p className="mt-2 text-slate-700 dark:text-slate-200">{message}</p>
      <div className="mt-6 flex flex-col gap-2 sm:flex-row">
        <a href={pathname} className={buttonVariants({ size: "lg" })}>
          <RefreshIcon size={18} />
          {T.retry}
        </a>
        <Link to={PRONUNCIATION_PATH} className={buttonVariants({ variant: "secondary", size: "lg" })}>
          <ArrowLeftIcon size={18} />
          {T.backToLevels}
        </Link>
      </div>
    </div>
  );
}
