// /flashcard-v2/<gameId>: one game (spec §2, §4). The server decides everything; the page is the same
// with and without JavaScript:
//  • without it, each question is a form (radio options + Verificar) that posts and comes back to
//    `?q=<n>` with the feedback, then Próximo/Finalizar are links; sounds are plain <audio controls>.
//  • with it, the game's pictures and sounds preload first, choosing an option plays its word, Verificar
//    sends the answer through a fetcher (the options lock, the feedback sound plays at 0.7), Próximo moves
//    on after a 300 ms transition without a request, and Finalizar opens the result with the tier's sound.
import { Form, Link, useFetcher, useNavigate, useNavigation, useRevalidator } from "@remix-run/react";
import { useEffect, useMemo, useRef, useState, type FormEvent, type MouseEvent } from "react";
import { Button, buttonVariants, SubmitButton } from "~/components/button";
import { cn } from "~/components/cn";
import { ArrowLeftIcon, ArrowRightIcon, CheckIcon, CloseIcon, PlayIcon } from "~/components/icons";
import { Refusal } from "~/components/Refusal";
import { playback } from "~/lib/audio/playback";
import { useHydrated } from "~/lib/use-hydrated";
import { FLASHCARDS_PATH } from "./admin/paths";
import { gameAssets, gamePath, mergeAnswers } from "./game-view";
import type { AnswerView, MissedWord, OptionView } from "./game.server";
import { LoadError, useLoadErrorToast } from "./LoadError";
import type { AnswerData, FlashcardActionData, GamePageData, GameResult } from "./page.server";
import { StartingStatus, useStarting } from "./Starting";
import { cardAlt, LOADING_TEXT, QUESTION_TEXT, TIER_LABELS } from "./texts";
import { criticalPercent, useGamePreload } from "./use-game-preload";

/** Spec §9: feedback sounds play at volume 0.7. */
export const FEEDBACK_VOLUME = 0.7;
/** Spec §4: Próximo moves on after a 300 ms transition. */
export const NEXT_TRANSITION_MS = 300;

/** The game whose Finalizar was just pressed: its result plays the tier's sound once (not on a reload). */
let tierSoundFor: string | null = null;

export function GameScreen({ page, actionData }: { page: GamePageData; actionData: FlashcardActionData | undefined }) {
  const { game } = page;
  return (
    <div className="mx-auto w-full max-w-2xl px-4 py-4 sm:px-6 sm:py-8">
      <header className="flex items-center gap-2">
        <Link
          to={FLASHCARDS_PATH}
          aria-label="Voltar às categorias"
          className="rounded-full p-2 text-slate-700 hover:bg-slate-100 dark:text-slate-200 dark:hover:bg-night-800"
        >
          <ArrowLeftIcon size={20} />
        </Link>
        <h1 className="min-w-0 flex-1 truncate text-lg font-bold tracking-tight sm:text-xl">
          Flashcards · {game.kind === "review" ? "Revisão" : (game.category?.name ?? "Jogo")}
        </h1>
      </header>
      {page.position === null && page.result ? (
        <Result page={page} result={page.result} actionData={actionData} />
      ) : (
        <Play key={game.id} page={page} actionData={actionData} />
      )}
    </div>
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

function Preloading({ percent }: { percent: number }) {
  return (
    <div className="mx-auto flex max-w-sm flex-col items-center py-16 text-center" data-testid="flashcards-preloading">
      <h2 className="text-lg font-semibold">Preparando o jogo...</h2>
      <p className="mt-1 text-sm text-slate-700 dark:text-slate-300">Carregando imagens e sons</p>
      <progress
        value={percent}
        max={100}
        aria-label="Carregando imagens e sons"
        className="mt-5 h-3 w-full appearance-none overflow-hidden rounded-full bg-slate-200 dark:bg-night-800 [&::-moz-progress-bar]:bg-indigo-600 [&::-webkit-progress-bar]:bg-slate-200 [&::-webkit-progress-value]:rounded-full [&::-webkit-progress-value]:bg-indigo-600 dark:[&::-moz-progress-bar]:bg-indigo-400 dark:[&::-webkit-progress-bar]:bg-night-800 dark:[&::-webkit-progress-value]:bg-indigo-400"
      />
      <p className="mt-2 text-sm font-semibold tabular-nums">{percent}%</p>
    </div>
  );
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
  const correctSoFar = answers.filter((a) => a?.correct).length;
  const checking = fetcher.state !== "idle";
  const finishing = navigation.state === "loading" && navigation.location.pathname === gamePath(game.id) && !navigation.location.search;

  const feedbackRef = useRef<HTMLDivElement>(null);
  const legendRef = useRef<HTMLLegendElement>(null);
  const focusNext = useRef<"feedback" | "question" | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(() => () => void (timer.current && clearTimeout(timer.current)), []);

  // Focus follows the game: the feedback after Verificar, the next question after Próximo.
  useEffect(() => {
    if (focusNext.current === "feedback") feedbackRef.current?.focus();
    else if (focusNext.current === "question") legendRef.current?.focus();
    focusNext.current = null;
  });

  // The answer's outcome (the page's script sent it): lock, sound, feedback.
  const handled = useRef<unknown>(null);
  useEffect(() => {
    const data = fetcher.data;
    if (!data || handled.current === data) return;
    handled.current = data;
    if ("answer" in data) {
      const { position, ...outcome } = data.answer;
      setGiven((current) => ({ ...current, [position]: outcome }));
      playback.play("flashcards-feedback", {
        src: outcome.correct ? feedback.sounds.correct : feedback.sounds.incorrect,
        text: "",
        lang: "en",
        volume: FEEDBACK_VOLUME,
      });
      focusNext.current = "feedback";
    } else if (data.code === "already_answered") revalidator.revalidate();
  }, [fetcher.data, feedback, revalidator]);

  const refusal = fetcher.data && !("answer" in fetcher.data) ? fetcher.data : actionData;

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!selected || answer || checking) return;
    playback.unlock(); // inside the tap: the feedback sound may play when the answer arrives (iOS)
    fetcher.submit(
      { intent: "answer", position: String(question.position), optionId: selected, via: "fetch" },
      { method: "post", action: gamePath(game.id) },
    );
  };

  const hear = (option: OptionView) => {
    if (answer) return;
    playback.unlock();
    playback.play(`flashcards-option-${option.id}`, { src: option.audioUrl, text: option.word, lang: "en" });
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
    <section
      aria-label={`Cartão ${index + 1} de ${total}`}
      className={cn("mt-4 transition-opacity duration-300 motion-reduce:transition-none", leaving && "opacity-0")}
      data-testid="flashcard"
    >
      <div className="flex items-center justify-between text-sm font-semibold text-slate-700 dark:text-slate-300">
        <span data-testid="flashcard-position">
          Cartão {index + 1} de {total}
        </span>
        <span>
          {correctSoFar} {correctSoFar === 1 ? "acerto" : "acertos"}
        </span>
      </div>
      <div aria-hidden className="mt-2 h-1.5 overflow-hidden rounded-full bg-slate-200 dark:bg-night-800">
        <div className="h-full bg-teal-600 dark:bg-teal-400" style={{ width: `${(answers.filter(Boolean).length / total) * 100}%` }} />
      </div>

      <div className="mt-4 flex justify-center rounded-3xl border border-slate-200 bg-white p-6 dark:border-night-700 dark:bg-night-900">
        {question.imageUrl ? (
          <img
            key={question.imageUrl}
            src={question.imageUrl}
            alt={cardAlt(index, total, answer?.word)}
            width={240}
            height={240}
            className="size-44 sm:size-60"
            data-testid="flashcard-image"
          />
        ) : (
          <p className="flex size-44 items-center justify-center text-center text-slate-600 sm:size-60 dark:text-slate-300">
            {cardAlt(index, total, answer?.word)}
          </p>
        )}
      </div>

      <Form method="post" action={gamePath(game.id)} onSubmit={hydrated ? onSubmit : undefined} className="mt-5">
        <input type="hidden" name="intent" value="answer" />
        <input type="hidden" name="position" value={question.position} />
        <fieldset disabled={Boolean(answer) || checking}>
          <legend ref={legendRef} tabIndex={-1} className="mb-3 text-xl font-bold tracking-tight outline-none" lang="en">
            {QUESTION_TEXT}
          </legend>
          <div className="grid gap-2 sm:grid-cols-2">
            {question.options.map((option) => (
              <OptionChoice
                key={option.id}
                option={option}
                answer={answer}
                checked={selected === option.id}
                onChange={() => setSelected(option.id)}
                onClick={() => hear(option)}
              />
            ))}
          </div>
        </fieldset>
        {answer ? null : (
          <Button type="submit" size="lg" disabled={hydrated && (!selected || checking)} className="mt-5 w-full sm:w-auto">
            {checking ? "Verificando..." : "Verificar"}
          </Button>
        )}
      </Form>

      <Refusal data={refusal} backTo={gamePath(game.id)} className="mt-4" />

      <div id="resposta" ref={feedbackRef} tabIndex={-1} aria-live="polite" className="mt-5 outline-none">
        {answer ? <Feedback answer={answer} /> : null}
      </div>

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
    </section>
  );
}

function OptionChoice({
  option,
  answer,
  checked,
  onChange,
  onClick,
}: {
  option: OptionView;
  answer: AnswerView | null;
  checked: boolean;
  onChange: () => void;
  onClick: () => void;
}) {
  const right = answer?.correctId === option.id;
  const wrongChoice = answer && !answer.correct && answer.chosenId === option.id;
  return (
    <div
      className={cn(
        "rounded-2xl border-2 bg-white transition-colors dark:bg-night-900",
        right
          ? "border-emerald-600 bg-emerald-50 dark:border-emerald-400 dark:bg-emerald-400/10"
          : wrongChoice
            ? "border-rose-600 bg-rose-50 dark:border-rose-400 dark:bg-rose-400/10"
            : checked
              ? "border-indigo-600 dark:border-indigo-400"
              : "border-slate-200 dark:border-night-700",
      )}
    >
      <label className="flex cursor-pointer items-center gap-3 px-4 py-3 has-[:disabled]:cursor-default">
        <input
          type="radio"
          name="optionId"
          value={option.id}
          required
          checked={checked}
          onChange={onChange}
          onClick={onClick}
          className="size-5 shrink-0 accent-indigo-600"
        />
        <span className="flex-1 text-lg font-semibold" lang="en">
          {option.word}
        </span>
        {right ? (
          <span className="flex items-center gap-1 text-sm font-semibold text-emerald-800 dark:text-emerald-200">
            <CheckIcon size={16} /> Resposta certa
          </span>
        ) : wrongChoice ? (
          <span className="flex items-center gap-1 text-sm font-semibold text-rose-800 dark:text-rose-200">
            <CloseIcon size={16} /> Sua resposta
          </span>
        ) : null}
      </label>
      {option.audioUrl ? (
        <noscript>
          {/* eslint-disable-next-line jsx-a11y/media-has-caption -- the English word, written in the option above */}
          <audio
            controls
            preload="none"
            src={option.audioUrl}
            aria-label={`Ouvir ${option.word}`}
            className="mx-4 mb-3 h-9 w-[calc(100%-2rem)]"
          />
        </noscript>
      ) : null}
    </div>
  );
}

function Feedback({ answer }: { answer: AnswerView }) {
  return (
    <div
      className={cn(
        "rounded-2xl border p-4",
        answer.correct
          ? "border-emerald-300 bg-emerald-50 text-emerald-950 dark:border-emerald-700 dark:bg-emerald-950/60 dark:text-emerald-50"
          : "border-rose-300 bg-rose-50 text-rose-950 dark:border-rose-800 dark:bg-rose-950/60 dark:text-rose-50",
      )}
      data-testid="flashcard-feedback"
    >
      <p className="text-lg font-bold">{answer.correct ? "Correto!" : "Não foi dessa vez"}</p>
      <p className="mt-1">
        {answer.correct ? "A resposta é " : "A resposta certa é "}
        <strong lang="en">{answer.word}</strong> — em português, <strong>{answer.translation}</strong>.
      </p>
    </div>
  );
}

// ——— the result ———

function Result({ page, result, actionData }: { page: GamePageData; result: GameResult; actionData: FlashcardActionData | undefined }) {
  const { game } = page;
  const hydrated = useHydrated();
  const { starting } = useStarting();
  const label = TIER_LABELS[result.tier];

  useEffect(() => {
    if (tierSoundFor !== game.id) return;
    tierSoundFor = null;
    playback.play("flashcards-tier", { src: result.soundUrl, text: "", lang: "en", volume: FEEDBACK_VOLUME });
  }, [game.id, result.soundUrl]);
  useEffect(() => () => playback.stop(), []);

  return (
    <section aria-labelledby="resultado" className="mt-4" data-testid="flashcards-result">
      <div className="flex flex-col items-center rounded-3xl border border-slate-200 bg-white p-6 text-center dark:border-night-700 dark:bg-night-900">
        <img src={result.imageUrl} alt="" width={128} height={128} className="size-28" />
        <h2 id="resultado" className="mt-3 text-2xl font-bold tracking-tight">
          {label.title}
        </h2>
        <p className="mt-1 text-slate-700 dark:text-slate-300">{label.message}</p>
        <dl className="mt-5 grid w-full grid-cols-3 gap-2">
          <Stat label="Acertos" value={result.correct} testId="result-correct" />
          <Stat label="Erros" value={result.incorrect} testId="result-incorrect" />
          <Stat label="Aproveitamento" value={`${result.percent}%`} testId="result-percent" />
        </dl>
        <noscript>
          {/* eslint-disable-next-line jsx-a11y/media-has-caption -- a short jingle; the result is written above */}
          <audio controls preload="none" src={result.soundUrl} aria-label="Ouvir o som do resultado" className="mt-4 h-9" />
        </noscript>
      </div>

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

      {page.game.missed.length > 0 ? (
        <div className="mt-8">
          <h2 className="text-lg font-bold tracking-tight">Palavras para revisar</h2>
          <p className="text-sm text-slate-700 dark:text-slate-300">Elas voltam no cartão Revisão da lista de categorias.</p>
          <ul className="mt-3 grid gap-2 sm:grid-cols-2" data-testid="missed-words">
            {page.game.missed.map((word, i) => (
              <MissedWordItem key={`${word.word}-${i}`} word={word} id={`${game.id}-${i}`} hydrated={hydrated} />
            ))}
          </ul>
        </div>
      ) : null}
    </section>
  );
}

function Stat({ label, value, testId }: { label: string; value: number | string; testId: string }) {
  return (
    <div className="rounded-2xl bg-slate-100 px-2 py-3 dark:bg-night-800">
      <dt className="text-xs font-semibold text-slate-700 uppercase dark:text-slate-300">{label}</dt>
      <dd className="mt-0.5 text-2xl font-bold tabular-nums" data-testid={testId}>
        {value}
      </dd>
    </div>
  );
}

function MissedWordItem({ word, id, hydrated }: { word: MissedWord; id: string; hydrated: boolean }) {
  return (
    <li className="flex items-center gap-3 rounded-2xl border border-slate-200 bg-white p-3 dark:border-night-700 dark:bg-night-900">
      {word.imageUrl ? <img src={word.imageUrl} alt="" width={56} height={56} className="size-14 shrink-0" loading="lazy" /> : null}
      <div className="min-w-0 flex-1">
        <p className="font-semibold" lang="en">
          {word.word}
        </p>
        <p className="text-sm text-slate-700 dark:text-slate-300">{word.translation}</p>
        {word.audioUrl ? (
          <noscript>
            {/* eslint-disable-next-line jsx-a11y/media-has-caption -- the English word, written above */}
            <audio controls preload="none" src={word.audioUrl} aria-label={`Ouvir ${word.word}`} className="mt-1 h-8 w-full" />
          </noscript>
        ) : null}
      </div>
      {hydrated ? (
        <button
          type="button"
          onClick={() => {
            playback.unlock();
            playback.play(`flashcards-missed-${id}`, { src: word.audioUrl, text: word.word, lang: "en" });
          }}
          aria-label={`Ouvir ${word.word}`}
          className={buttonVariants({ variant: "secondary", size: "icon", className: "rounded-full" })}
        >
          <PlayIcon size={18} />
        </button>
      ) : null}
    </li>
  );
}
