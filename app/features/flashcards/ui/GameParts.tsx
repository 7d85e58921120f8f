// The game's screens, shared by the online game (GameScreen: the server decides each answer) and the
// offline player (features/offline: the downloaded bundle decides it): the frame, the preloading stage,
// the question card with its options and feedback, the result and the missed words — and the sounds they
// play. Presentational: each game wires its own forms, answers and navigation around them.
import { forwardRef, useEffect, useRef, type ReactNode, type Ref } from "react";
import { Link } from "react-router";
import { buttonVariants } from "~/components/button";
import { cn } from "~/components/cn";
import { ArrowLeftIcon, CheckIcon, CloseIcon, PlayIcon } from "~/components/icons";
import { playback } from "~/lib/audio/playback";
import { useHydrated } from "~/lib/use-hydrated";
import type { Tier } from "../game-rules";
import type { AnswerView, CorrectionPrompt, MissedWord, OptionView, PronunciationPrompt } from "../game.server";
import { cardAlt, CORRECTION_TEXTS, PRONUNCIATION_CARD_TEXTS, QUESTION_TEXT, TIER_LABELS } from "../texts";

/** Spec §9: feedback sounds play at volume 0.7. */
export const FEEDBACK_VOLUME = 0.7;
/** Spec §4: Próximo moves on after a 300 ms transition. */
export const NEXT_TRANSITION_MS = 300;

export type ResultView = { tier: Tier; percent: number; correct: number; incorrect: number; imageUrl: string; soundUrl: string };

// ——— sounds ———

/** The answer's feedback sound (right or wrong), at the feedback volume. */
export function playFeedback(correct: boolean, sounds: { correct: string; incorrect: string }) {
  playback.play("flashcards-feedback", { src: correct ? sounds.correct : sounds.incorrect, text: "", lang: "en", volume: FEEDBACK_VOLUME });
}

/** An option's word (its recording, or the browser's voice), inside the tap that chose it. */
export function hearOption(option: OptionView) {
  playback.unlock();
  playback.play(`flashcards-option-${option.id}`, { src: option.audioUrl, text: option.word, lang: "en" });
}

export function playTier(soundUrl: string) {
  playback.play("flashcards-tier", { src: soundUrl, text: "", lang: "en", volume: FEEDBACK_VOLUME });
}

// ——— the frame ———

/** `onBack`: the back link stays in the page (the offline player's list) instead of navigating. */
export function GameFrame({ title, backTo, onBack, children }: { title: string; backTo: string; onBack?: () => void; children: ReactNode }) {
  return (
    <div className="mx-auto w-full max-w-2xl px-4 py-4 sm:px-6 sm:py-8">
      <header className="flex items-center gap-2">
        <Link
          to={backTo}
          onClick={
            onBack
              ? (event) => {
                  event.preventDefault();
                  onBack();
                }
              : undefined
          }
          aria-label="Voltar às categorias"
          className="rounded-full p-2 text-slate-700 hover:bg-slate-100 dark:text-slate-200 dark:hover:bg-night-800"
        >
          <ArrowLeftIcon size={20} />
        </Link>
        <h1 className="min-w-0 flex-1 truncate text-lg font-bold tracking-tight sm:text-xl">Flashcards · {title}</h1>
      </header>
      {children}
    </div>
  );
}

export function Preloading({ percent }: { percent: number }) {
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

// ——— a question ———

/** Focus follows the game: the feedback after Verificar, the next question after Próximo. */
export function useQuestionFocus() {
  const feedbackRef = useRef<HTMLDivElement>(null);
  const legendRef = useRef<HTMLLegendElement>(null);
  const focusNext = useRef<"feedback" | "question" | null>(null);
  useEffect(() => {
    if (focusNext.current === "feedback") feedbackRef.current?.focus();
    else if (focusNext.current === "question") legendRef.current?.focus();
    focusNext.current = null;
  });
  return { feedbackRef, legendRef, focusNext };
}

/**
 * The card: position, hits so far, progress, the picture (never naming the answer before it is given) — or, for a
 * "Meu caderno" correction, the learner's own sentence with the mistake highlighted; for a pronunciation word, the
 * word to say (heard with the browser's voice) and its sentence.
 */
export function QuestionCard({
  index,
  total,
  answers,
  imageUrl,
  correction = null,
  pronunciation = null,
  answer,
  leaving,
  children,
}: {
  index: number;
  total: number;
  answers: readonly (AnswerView | null | undefined)[];
  imageUrl: string | null;
  correction?: CorrectionPrompt | null;
  pronunciation?: PronunciationPrompt | null;
  answer: AnswerView | null;
  leaving: boolean;
  /** The options' form, the refusal, the feedback and the next step. */
  children: ReactNode;
}) {
  const correctSoFar = answers.filter((a) => a?.correct).length;
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
        {pronunciation ? (
          <PronunciationWord prompt={pronunciation} />
        ) : correction ? (
          <CorrectionSentence correction={correction} />
        ) : imageUrl ? (
          <img
            key={imageUrl}
            src={imageUrl}
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
      {children}
    </section>
  );
}

/** The sentence as the learner said it, the wrong words marked (the first place they appear). */
function CorrectionSentence({ correction: { sentence, wrong } }: { correction: CorrectionPrompt }) {
  const at = wrong ? sentence.toLowerCase().indexOf(wrong.toLowerCase()) : -1;
  return (
    <figure className="w-full text-center" data-testid="correction-sentence">
      <figcaption className="text-sm font-semibold text-slate-700 dark:text-slate-300">{CORRECTION_TEXTS.youSaid}</figcaption>
      <blockquote className="mt-2 text-xl leading-relaxed" lang="en">
        {at < 0 ? (
          sentence
        ) : (
          <>
            {sentence.slice(0, at)}
            <mark className="rounded bg-amber-200 px-1 text-slate-950 dark:bg-amber-300">{sentence.slice(at, at + wrong.length)}</mark>
            {sentence.slice(at + wrong.length)}
          </>
        )}
      </blockquote>
    </figure>
  );
}

/** The word to say, "Ouvir" (the browser's voice, as an option without a recording; without JavaScript, the word only), and its sentence. */
function PronunciationWord({ prompt: { word, sentence } }: { prompt: PronunciationPrompt }) {
  const hydrated = useHydrated();
  return (
    <figure className="w-full text-center" data-testid="pronunciation-word">
      <p className="flex items-center justify-center gap-3">
        <span className="text-3xl font-bold tracking-tight" lang="en">
          {word}
        </span>
        {hydrated ? (
          <button
            type="button"
            onClick={() => hearOption({ id: "pronunciation", word, audioUrl: null })}
            aria-label={PRONUNCIATION_CARD_TEXTS.listen(word)}
            className={buttonVariants({ variant: "secondary", size: "icon", className: "rounded-full" })}
          >
            <PlayIcon size={18} />
          </button>
        ) : null}
      </p>
      <figcaption className="mt-3 text-sm text-slate-700 dark:text-slate-300">
        {PRONUNCIATION_CARD_TEXTS.fromSentence}: <q lang="en">{sentence}</q>
      </figcaption>
    </figure>
  );
}

/** The question's radio group ('What is this?', or a correction's question), locked once answered or while checking. */
export function OptionsFieldset({
  options,
  answer,
  selected,
  locked,
  legendRef,
  onSelect,
  onHear,
  correction = false,
}: {
  correction?: boolean;
  options: readonly OptionView[];
  answer: AnswerView | null;
  selected: string | null;
  locked: boolean;
  legendRef: Ref<HTMLLegendElement>;
  onSelect: (optionId: string) => void;
  onHear: (option: OptionView) => void;
}) {
  return (
    <fieldset disabled={locked}>
      <legend ref={legendRef} tabIndex={-1} className="mb-3 text-xl font-bold tracking-tight outline-none" lang={correction ? "pt-BR" : "en"}>
        {correction ? CORRECTION_TEXTS.question : QUESTION_TEXT}
      </legend>
      <div className="grid gap-2 sm:grid-cols-2">
        {options.map((option) => (
          <OptionChoice
            key={option.id}
            option={option}
            answer={answer}
            checked={selected === option.id}
            onChange={() => onSelect(option.id)}
            onClick={() => onHear(option)}
          />
        ))}
      </div>
    </fieldset>
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

/** The live region the feedback appears in (focused after Verificar). */
export const FeedbackRegion = forwardRef<HTMLDivElement, { answer: AnswerView | null }>(function FeedbackRegion({ answer }, ref) {
  return (
    <div id="resposta" ref={ref} tabIndex={-1} aria-live="polite" className="mt-5 outline-none">
      {answer ? <Feedback answer={answer} /> : null}
    </div>
  );
});

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
      {answer.score !== undefined ? (
        <p className="mt-1" data-testid="pronunciation-score">
          <strong lang="en">{answer.word}</strong>: {PRONUNCIATION_CARD_TEXTS.score(answer.score)}{" "}
          {answer.correct ? PRONUNCIATION_CARD_TEXTS.right : PRONUNCIATION_CARD_TEXTS.wrong}
        </p>
      ) : answer.explanation !== undefined ? (
        <p className="mt-1">
          {CORRECTION_TEXTS.rightForm} <strong lang="en">{answer.word}</strong>. {answer.explanation}
        </p>
      ) : (
        <p className="mt-1">
          {answer.correct ? "A resposta é " : "A resposta certa é "}
          <strong lang="en">{answer.word}</strong> — em português, <strong>{answer.translation}</strong>.
        </p>
      )}
    </div>
  );
}

// ——— the result ———

/** The tier's picture, title and message, and the counts. */
export function ResultCard({ result }: { result: ResultView }) {
  const label = TIER_LABELS[result.tier];
  return (
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

/** 'Palavras para revisar': the words answered wrong, each with its sound. */
export function MissedWords({ words, idPrefix, hydrated }: { words: readonly MissedWord[]; idPrefix: string; hydrated: boolean }) {
  if (words.length === 0) return null;
  return (
    <div className="mt-8">
      <h2 className="text-lg font-bold tracking-tight">Palavras para revisar</h2>
      <p className="text-sm text-slate-700 dark:text-slate-300">Elas voltam no cartão Revisão da lista de categorias.</p>
      <ul className="mt-3 grid gap-2 sm:grid-cols-2" data-testid="missed-words">
        {words.map((word, i) => (
          <MissedWordItem key={`${word.word}-${i}`} word={word} id={`${idPrefix}-${i}`} hydrated={hydrated} />
        ))}
      </ul>
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
