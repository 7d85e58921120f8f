// /flashcard-v2/<gameId>: one game (spec §2, §4). The server decides everything; the page is the same
// with and without JavaScript:
//  • without it, each question is a form (radio options + Verificar) that posts and comes back to
//    `?q=<n>` with the feedback, then Próximo/Finalizar are links; sounds are plain <audio controls>.
//  • with it, the game's pictures and sounds preload first, choosing an option plays its word, Verificar
//    sends the answer through a fetcher (the options lock, the feedback sound plays at 0.7), Próximo moves
//    on after a 300 ms transition without a request, and Finalizar opens the result with the tier's sound.
// A "Meu caderno" pronunciation word is a multipart form instead: without JavaScript a file input (`capture`: the
// phone's recorder) and Verificar; with it the app's one recorder (useVoiceRecorder), or the same file input, sent
// through the fetcher. The server scores it; the score shows only after.
// The screens themselves are GameParts (the offline player shows the same ones).
import { useEffect, useMemo, useRef, useState, type FormEvent, type MouseEvent, type Ref } from "react";
import { Form, Link, useFetcher, useNavigate, useNavigation, useRevalidator } from "react-router";
import { Button, buttonVariants, SubmitButton } from "~/components/button";
import { ArrowRightIcon, MicIcon } from "~/components/icons";
import { Refusal } from "~/components/Refusal";
import { playback } from "~/lib/audio/playback";
import { useVoiceRecorder } from "~/lib/audio/use-voice-recorder";
import { useHydrated } from "~/lib/use-hydrated";
import { FLASHCARDS_PATH } from "../admin/paths";
import { gameAssets, gamePath, mergeAnswers } from "../game-view";
import type { AnswerView } from "../game.server";
import type { AnswerData, FlashcardActionData, GamePageData, GameResult } from "../page.server";
import { LOADING_TEXT, PRONUNCIATION_CARD_TEXTS as P } from "../texts";
import {
  FeedbackRegion,
  GameFrame,
  hearOption,
  MissedWords,
  NEXT_TRANSITION_MS,
  OptionsFieldset,
  playFeedback,
  playTier,
  Preloading,
  QuestionCard,
  ResultCard,
  useQuestionFocus,
} from "./GameParts";
import { LoadError, useLoadErrorToast } from "./LoadError";
import { StartingStatus, useStarting } from "./Starting";
import { criticalPercent, useGamePreload } from "./use-game-preload";

/** The game whose Finalizar was just pressed: its result plays the tier's sound once (not on a reload). */
let tierSoundFor: string | null = null;

export function GameScreen({ page, actionData }: { page: GamePageData; actionData: FlashcardActionData | undefined }) {
  const { game } = page;
  return (
    <GameFrame title={game.kind === "review" ? "Revisão" : (game.category?.name ?? "Jogo")} backTo={FLASHCARDS_PATH}>
      {page.position === null && page.result ? (
        <Result page={page} result={page.result} actionData={actionData} />
      ) : (
        <Play key={game.id} page={page} actionData={actionData} />
      )}
    </GameFrame>
  );
}

// ——— playing ———

function Play({ page, actionData }: { page: GamePageData; actionData: FlashcardActionData | undefined }) {
  const { game, feedback } = page;
  const start = page.position ?? 0;
  const hydrated = useHydrated();
  // Opened by a client navigation (from the picker, Recomeçar): preload before playing.
  const [gate] = useState(hydrated);
  const assets = useMemo(() => gameAssets(game.questions, start, feedback), [game.questions, start, feedback]);
  const preload = useGamePreload(assets, gate);
  useLoadErrorToast(preload.stage === "error");
  useEffect(() => () => playback.stop(), []);

  if (preload.stage === "preloading") return <Preloading percent={criticalPercent(preload.progress)} />;
  if (preload.stage === "error") return <LoadError onRetry={preload.retry} />;
  return <Questions page={page} start={start} actionData={actionData} />;
}

function Questions({ page, start, actionData }: { page: GamePageData; start: number; actionData: FlashcardActionData | undefined }) {
  const { game, feedback } = page;
  const hydrated = useHydrated();
  const navigate = useNavigate();
  const navigation = useNavigation();
  const revalidator = useRevalidator();
  const fetcher = useFetcher<AnswerData | FlashcardActionData>();
  const [index, setIndex] = useState(start);
  const [given, setGiven] = useState<Record<number, AnswerView>>({});
  const answers = mergeAnswers(game.questions, given);
  const question = game.questions[index]!;
  const answer = answers[index] ?? null;
  const [selected, setSelected] = useState<string | null>(answer?.chosenId ?? null);
  const [leaving, setLeaving] = useState(false);
  const total = game.questions.length;
  const last = index + 1 >= total;
  const checking = fetcher.state !== "idle";
  const finishing = navigation.state === "loading" && navigation.location.pathname === gamePath(game.id) && !navigation.location.search;

  const { feedbackRef, legendRef, focusNext } = useQuestionFocus();
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(() => () => void (timer.current && clearTimeout(timer.current)), []);

  // The answer's outcome (the page's script sent it): lock, sound, feedback.
  const handled = useRef<unknown>(null);
  useEffect(() => {
    const data = fetcher.data;
    if (!data || handled.current === data) return;
    handled.current = data;
    if ("answer" in data) {
      const { position, ...outcome } = data.answer;
      setGiven((current) => ({ ...current, [position]: outcome }));
      playFeedback(outcome.correct, feedback.sounds);
      focusNext.current = "feedback";
    } else if (data.code === "already_answered") revalidator.revalidate();
  }, [fetcher.data, feedback, revalidator, focusNext]);

  const refusal = fetcher.data && !("answer" in fetcher.data) ? fetcher.data : actionData;

  const sendRecording = (form: FormData) => {
    if (answer || checking) return;
    playback.unlock(); // inside the tap: the feedback sound may play when the answer arrives (iOS)
    fetcher.submit(form, { method: "post", encType: "multipart/form-data", action: gamePath(game.id) });
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!selected || answer || checking) return;
    playback.unlock(); // inside the tap: the feedback sound may play when the answer arrives (iOS)
    fetcher.submit(
      { intent: "answer", position: String(question.position), optionId: selected, via: "fetch" },
      { method: "post", action: gamePath(game.id) },
    );
  };

  const next = (event: MouseEvent<HTMLAnchorElement>) => {
    event.preventDefault();
    if (leaving) return;
    setLeaving(true);
    timer.current = setTimeout(() => {
      const coming = index + 1;
      setIndex(coming);
      setSelected(answers[coming]?.chosenId ?? null);
      setLeaving(false);
      focusNext.current = "question";
      // The address follows (a reload shows this question); no request: the pictures are preloaded.
      window.history.replaceState(window.history.state, "", gamePath(game.id, coming + 1));
    }, NEXT_TRANSITION_MS);
  };

  const finish = (event: MouseEvent<HTMLAnchorElement>) => {
    event.preventDefault();
    tierSoundFor = game.id;
    navigate(gamePath(game.id));
  };

  return (
    <QuestionCard
      index={index}
      total={total}
      answers={answers}
      imageUrl={question.imageUrl}
      correction={question.correction}
      pronunciation={question.pronunciation}
      answer={answer}
      leaving={leaving}
    >
      {question.pronunciation ? (
        <PronunciationForm
          key={question.position}
          gameId={game.id}
          position={question.position}
          answered={Boolean(answer)}
          checking={checking}
          legendRef={legendRef}
          onSend={sendRecording}
        />
      ) : (
        <Form method="post" action={gamePath(game.id)} onSubmit={hydrated ? onSubmit : undefined} className="mt-5">
          <input type="hidden" name="intent" value="answer" />
          <input type="hidden" name="position" value={question.position} />
          <OptionsFieldset
            correction={question.correction !== null}
            options={question.options}
            answer={answer}
            selected={selected}
            locked={Boolean(answer) || checking}
            legendRef={legendRef}
            onSelect={setSelected}
            onHear={(option) => !answer && !question.correction && hearOption(option)}
          />
          {answer ? null : (
            <Button type="submit" size="lg" disabled={hydrated && (!selected || checking)} className="mt-5 w-full sm:w-auto">
              {checking ? "Verificando..." : "Verificar"}
            </Button>
          )}
        </Form>
      )}

      <Refusal data={refusal} backTo={gamePath(game.id)} className="mt-4" />

      <FeedbackRegion ref={feedbackRef} answer={answer} />

      {answer ? (
        <div className="mt-4 flex justify-end">
          {last ? (
            <Link
              to={gamePath(game.id)}
              onClick={hydrated ? finish : undefined}
              className={buttonVariants({ size: "lg" })}
              aria-disabled={finishing || undefined}
            >
              {finishing ? "Finalizando..." : "Finalizar"}
            </Link>
          ) : (
            <Link to={gamePath(game.id, index + 2)} onClick={hydrated ? next : undefined} className={buttonVariants({ size: "lg" })}>
              Próximo
              <ArrowRightIcon size={18} />
            </Link>
          )}
        </div>
      ) : null}
    </QuestionCard>
  );
}

/**
 * A pronunciation word's form (multipart, `intent=pronounce`): the file input alone without JavaScript; with it the
 * recorder first, the file input as the other way, and Verificar sends whichever the learner gave (the recording wins).
 */
function PronunciationForm({
  gameId,
  position,
  answered,
  checking,
  legendRef,
  onSend,
}: {
  gameId: string;
  position: number;
  answered: boolean;
  checking: boolean;
  legendRef: Ref<HTMLLegendElement>;
  onSend: (form: FormData) => void;
}) {
  const hydrated = useHydrated();
  const [recorded, setRecorded] = useState<Blob | null>(null);
  const [hasFile, setHasFile] = useState(false);
  const voice = useVoiceRecorder(setRecorded);
  const inputId = `pronunciation-audio-${position}`;

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!recorded && !hasFile) return;
    const form = new FormData(event.currentTarget);
    if (recorded) form.set("audio", new File([recorded], "gravacao.wav", { type: "audio/wav" }));
    form.set("via", "fetch");
    onSend(form);
  };

  return (
    <Form method="post" encType="multipart/form-data" action={gamePath(gameId)} onSubmit={hydrated ? onSubmit : undefined} className="mt-5">
      <input type="hidden" name="intent" value="pronounce" />
      <input type="hidden" name="position" value={position} />
      <fieldset disabled={answered || checking}>
        <legend ref={legendRef} tabIndex={-1} className="mb-3 text-xl font-bold tracking-tight outline-none">
          {P.question}
        </legend>
        {hydrated ? (
          <div className="flex flex-wrap items-center gap-3">
            {voice.recording ? (
              <>
                <p role="status" className="flex items-center gap-2 font-medium text-rose-700 dark:text-rose-300">
                  <span aria-hidden="true" className="size-2.5 animate-pulse rounded-full bg-rose-600" />
                  {P.recording(voice.seconds)}
                </p>
                <Button variant="danger" onClick={() => void voice.stop()}>
                  {P.stop}
                </Button>
              </>
            ) : (
              <Button
                variant={recorded ? "secondary" : "primary"}
                onClick={() => void voice.start()}
                disabled={voice.converting}
                aria-busy={voice.converting || undefined}
              >
                <MicIcon size={18} />
                {recorded ? P.recordAgain : P.record}
              </Button>
            )}
            {recorded && !voice.recording ? (
              <p role="status" className="text-sm font-medium text-slate-700 dark:text-slate-300">
                {P.recorded}
              </p>
            ) : null}
          </div>
        ) : null}
        <div className={hydrated ? "mt-4 border-t border-slate-200 pt-3 dark:border-night-700" : undefined}>
          <label htmlFor={inputId} className="block font-semibold">
            {hydrated ? P.uploadLabelWithRecorder : P.uploadLabel}
          </label>
          <p id={`${inputId}-hint`} className="mt-1 text-sm text-slate-700 dark:text-slate-300">
            {P.uploadHint}
          </p>
          <input
            id={inputId}
            name="audio"
            type="file"
            accept="audio/*"
            capture="user"
            required={!hydrated}
            onChange={(event) => setHasFile(Boolean(event.currentTarget.files?.length))}
            aria-describedby={`${inputId}-hint`}
            className="mt-2 block w-full text-sm file:mr-3 file:rounded-lg file:border-0 file:bg-indigo-50 file:px-3 file:py-2 file:font-semibold file:text-indigo-800 dark:file:bg-indigo-400/15 dark:file:text-indigo-100"
          />
        </div>
      </fieldset>
      {answered ? null : (
        <Button
          type="submit"
          size="lg"
          disabled={hydrated && ((!recorded && !hasFile) || checking || voice.recording || voice.converting)}
          className="mt-5 w-full sm:w-auto"
        >
          {checking ? "Verificando..." : "Verificar"}
        </Button>
      )}
    </Form>
  );
}

// ——— the result ———

function Result({ page, result, actionData }: { page: GamePageData; result: GameResult; actionData: FlashcardActionData | undefined }) {
  const { game } = page;
  const hydrated = useHydrated();
  const { starting } = useStarting();

  useEffect(() => {
    if (tierSoundFor !== game.id) return;
    tierSoundFor = null;
    playTier(result.soundUrl);
  }, [game.id, result.soundUrl]);
  useEffect(() => () => playback.stop(), []);

  return (
    <section aria-labelledby="resultado" className="mt-4" data-testid="flashcards-result">
      <ResultCard result={result} />

      <Refusal data={actionData} backTo={gamePath(game.id)} className="mt-4" />
      <StartingStatus starting={starting} />

      <div className="mt-5 flex flex-col gap-2 sm:flex-row">
        <Form method="post" action={gamePath(game.id)} className="sm:flex-1">
          <input type="hidden" name="intent" value="restart" />
          <SubmitButton size="lg" className="w-full" pendingText={LOADING_TEXT} pending={starting}>
            Recomeçar
          </SubmitButton>
        </Form>
        <Link to={FLASHCARDS_PATH} className={buttonVariants({ variant: "secondary", size: "lg", className: "sm:flex-1" })}>
          Escolher outra categoria
        </Link>
      </div>

      <MissedWords words={game.missed} idPrefix={game.id} hydrated={hydrated} />
    </section>
  );
}
