// /flashcard-v2/offline: the downloaded bundles of the learner signed in on this browser, and a
// game of up to 10 cards from one — a Revisão's with its "Meu caderno" correction cards between the picture cards, as
// online — the online game's screens, sounds and feedback (GameParts), decided in the browser from the signed bundle. Each answer goes to the IndexedDB queue (synced later: the server
// checks the bundle's signature and counts the game and its credit then). Everything comes from IndexedDB
// after hydration: the page itself is the same for every learner, so the service worker can keep it.
import { useEffect, useMemo, useRef, useState, type FormEvent, type MouseEvent } from "react";
import { Button, buttonVariants } from "~/components/button";
import { ArrowLeftIcon, ArrowRightIcon, CardsIcon, PlayIcon } from "~/components/icons";
import { NoticeBox } from "~/components/notice";
import type { BundleCard, BundleCorrection, OfflineStorage, QueueItem, StoredBundle } from "~/features/offline";
import { playback } from "~/lib/audio/playback";
import { OFFLINE_PLAYER_PATH } from "~/lib/offline-paths";
import { useHydrated } from "~/lib/use-hydrated";
import { FLASHCARDS_PATH } from "../admin/paths";
import { percentOf, QUESTIONS_PER_GAME, tierOf } from "../game-rules";
import { gameAssets } from "../game-view";
import type { AnswerView, MissedWord, QuestionView } from "../game.server";
import { cardsLabel } from "../texts";
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
  type ResultView,
} from "./GameParts";
import { LoadError, useLoadErrorToast } from "./LoadError";
import { criticalPercent, useGamePreload } from "./use-game-preload";

/** A question of an offline game: a picture card, or a Revisão's correction card. */
type Question = { card: BundleCard; correction?: never } | { correction: BundleCorrection; card?: never };
type Game = { id: string; stored: StoredBundle; questions: Question[] };

const expired = (stored: StoredBundle) => new Date(stored.bundle.expiresAt).getTime() <= Date.now();
/** A bundle's corrections (none in one stored before bundles had them). */
const correctionsOf = (stored: StoredBundle) => stored.bundle.corrections ?? [];
/** Every question a bundle can ask: its picture cards and its corrections. */
const questionsIn = (stored: StoredBundle) => stored.bundle.cards.length + correctionsOf(stored).length;

/** Whether a correction's form at `place` is its right form (the player's verdict; the sync decides again). */
const rightPlace = (correction: BundleCorrection, place: number) => correction.options[place] === correction.right;

/**
 * Up to 10 questions, as many as the online game would ask of the bundle: a category's cards in a random order;
 * Revisão's cards in the server's order (missed and due first) and its corrections, one after the other. Cards answered
 * in games still waiting to be synced go last, so a second game offline asks other words; a correction answered right
 * there is no longer due (as online), so it is asked again only when the game needs it to fill its questions.
 */
function pickQuestions(stored: StoredBundle, queued: readonly QueueItem[]): Question[] {
  const answeredCards = new Set<string>();
  const rightEntries = new Set<string>();
  const corrections = correctionsOf(stored);
  for (const { answer } of queued) {
    if ("cardId" in answer) answeredCards.add(answer.cardId);
    else {
      const correction = corrections.find((c) => c.id === answer.entryId);
      if (correction && rightPlace(correction, answer.chosenIndex)) rightEntries.add(answer.entryId);
    }
  }
  const cards = [...stored.bundle.cards];
  if (stored.bundle.kind === "category") {
    for (let i = cards.length - 1; i > 0; i--) {
      const j = Math.floor(Math.random() * (i + 1));
      [cards[i], cards[j]] = [cards[j]!, cards[i]!];
    }
  }
  const count = Math.min(QUESTIONS_PER_GAME, cards.length + corrections.length);
  const due = corrections.filter((c) => !rightEntries.has(c.id)).slice(0, count);
  const picked = [...cards.filter((card) => !answeredCards.has(card.id)), ...cards.filter((card) => answeredCards.has(card.id))].slice(
    0,
    count - due.length,
  );
  const asked = [...due, ...corrections.filter((c) => rightEntries.has(c.id))].slice(0, count - picked.length);
  const questions: Question[] = [];
  for (let i = 0; i < Math.max(picked.length, asked.length); i++) {
    if (picked[i]) questions.push({ card: picked[i]! });
    if (asked[i]) questions.push({ correction: asked[i]! });
  }
  return questions;
}

/** A question as the shared game parts show it: a card's picture and options, or a correction's sentence and forms. */
function viewOf(question: Question): Pick<QuestionView, "imageUrl" | "correction" | "options"> {
  if (question.card) return { imageUrl: question.card.imageUrl, correction: null, options: question.card.options };
  const { sentence, wrong, options } = question.correction;
  return {
    imageUrl: null,
    correction: { sentence, wrong },
    options: options.map((word, place) => ({ id: String(place), word, audioUrl: null })),
  };
}

/** `storage`: offline practice's IndexedDB queue and downloads, passed in by the route. */
export function OfflinePlayer({ storage }: { storage: OfflineStorage }) {
  const { accountBundles, accountQueue, currentAccount, SyncStatus, useOfflineSync } = storage;
  const hydrated = useHydrated();
  const [account, setAccount] = useState<string | null | undefined>(undefined);
  const [bundles, setBundles] = useState<StoredBundle[]>([]);
  const [confirming, setConfirming] = useState<StoredBundle | null>(null);
  const [game, setGame] = useState<Game | null>(null);
  const sync = useOfflineSync();

  useEffect(() => {
    let live = true;
    (async () => {
      const userId = await currentAccount();
      const rows = userId ? await accountBundles(userId) : [];
      if (live) {
        setAccount(userId);
        setBundles(rows);
      }
    })().catch(() => live && setAccount(null));
    return () => {
      live = false;
    };
  }, [accountBundles, currentAccount]);

  const start = async (stored: StoredBundle) => {
    setConfirming(null);
    const queued = account ? await accountQueue(account).catch(() => []) : [];
    const mine = queued.filter((item) => item.game.bundleId === stored.bundle.id);
    setGame({ id: crypto.randomUUID(), stored, questions: pickQuestions(stored, mine) });
  };

  if (game && account) {
    return (
      <GameFrame title={game.stored.bundle.title} backTo={OFFLINE_PLAYER_PATH} onBack={() => setGame(null)}>
        <OfflineGame
          key={game.id}
          game={game}
          storage={storage}
          userId={account}
          onQueued={() => void sync.refresh()}
          onFinished={() => void sync.sync()}
          onAgain={() => setConfirming(game.stored)}
          onLeave={() => setGame(null)}
        />
        {confirming ? <ConfirmStart stored={confirming} onStart={() => void start(confirming)} onCancel={() => setConfirming(null)} /> : null}
      </GameFrame>
    );
  }

  return (
    <div className="mx-auto w-full max-w-2xl px-4 py-6 sm:px-6 sm:py-10">
      {/* A document navigation: offline, the service worker answers it (no route data to fetch). */}
      <a
        href={FLASHCARDS_PATH}
        className="inline-flex items-center gap-1.5 rounded-lg py-1 pr-2 text-sm font-semibold text-slate-700 hover:text-slate-950 dark:text-slate-200 dark:hover:text-white"
      >
        <ArrowLeftIcon size={18} />
        Voltar aos Flashcards
      </a>
      <h1 className="mt-3 text-2xl font-bold tracking-tight sm:text-3xl">Flashcards offline</h1>
      <p className="mt-1 text-slate-700 dark:text-slate-300">
        Jogue a Revisão e as categorias que você baixou, mesmo sem internet. Suas respostas ficam guardadas neste aparelho e são sincronizadas
        quando a conexão voltar.
      </p>
      <SyncStatus pending={sync.pending} synced={sync.synced} className="mt-3 text-sm" />

      <noscript>
        <p className="mt-6 rounded-2xl border border-slate-200 p-4 dark:border-night-700">
          Os jogos baixados precisam de JavaScript. Ative-o ou jogue online em <a href={FLASHCARDS_PATH}>Flashcards</a>.
        </p>
      </noscript>

      {!hydrated || account === undefined ? (
        hydrated ? (
          <p className="mt-6 text-slate-700 dark:text-slate-300">Carregando seus downloads...</p>
        ) : null
      ) : account === null ? (
        <NoticeBox
          className="mt-6"
          notice={{
            tone: "info",
            title: "Entre na sua conta",
            description: "Com internet, entre na sua conta e baixe flashcards para jogar aqui sem conexão.",
          }}
        >
          <a href="/signin" className={buttonVariants({ size: "sm", className: "mt-3" })}>
            Entrar
          </a>
        </NoticeBox>
      ) : bundles.length === 0 ? (
        <div className="mt-6 rounded-2xl border border-dashed border-slate-300 p-6 text-center dark:border-night-700">
          <CardsIcon size={40} className="mx-auto text-slate-500" />
          <p className="mt-2 font-semibold">Nenhum flashcard baixado</p>
          <p className="mt-1 text-sm text-slate-700 dark:text-slate-300">
            Com internet, abra os Flashcards e toque em “Baixar para praticar offline” na Revisão ou numa categoria.
          </p>
        </div>
      ) : (
        <ul className="mt-6 grid gap-3 sm:grid-cols-2" aria-label="Flashcards baixados">
          {bundles.map((stored) => (
            <li key={stored.bundle.id} className="rounded-2xl border border-slate-200 bg-white p-4 dark:border-night-700 dark:bg-night-900">
              <p className="font-semibold">{stored.bundle.title}</p>
              <p className="text-sm text-slate-700 dark:text-slate-300">
                {cardsLabel(questionsIn(stored))} ·{" "}
                {expired(stored)
                  ? "download expirado"
                  : `válido até ${new Intl.DateTimeFormat("pt-BR", { day: "2-digit", month: "2-digit" }).format(new Date(stored.bundle.expiresAt))}`}
              </p>
              <Button
                size="sm"
                className="mt-3"
                onClick={() => setConfirming(stored)}
                disabled={expired(stored) || questionsIn(stored) === 0}
                aria-label={`Jogar ${stored.bundle.title}`}
              >
                <PlayIcon size={16} />
                Jogar
              </Button>
            </li>
          ))}
        </ul>
      )}
      {confirming ? <ConfirmStart stored={confirming} onStart={() => void start(confirming)} onCancel={() => setConfirming(null)} /> : null}
    </div>
  );
}

/** Before a game: it costs 1 credit, spent when its answers are synced. */
function ConfirmStart({ stored, onStart, onCancel }: { stored: StoredBundle; onStart: () => void; onCancel: () => void }) {
  const startRef = useRef<HTMLButtonElement>(null);
  useEffect(() => startRef.current?.focus(), []);
  return (
    <section
      aria-labelledby="confirmar-jogo"
      className="mt-6 rounded-2xl border border-indigo-300 bg-indigo-50 p-4 text-indigo-950 dark:border-indigo-800 dark:bg-indigo-950/60 dark:text-indigo-50"
      data-testid="offline-confirm"
    >
      <h2 id="confirmar-jogo" className="font-bold">
        Jogar {stored.bundle.title}
      </h2>
      <p className="mt-1 text-sm">Este jogo custa 1 crédito, descontado quando suas respostas forem sincronizadas.</p>
      <div className="mt-3 flex gap-2">
        <button ref={startRef} type="button" className={buttonVariants({ size: "sm" })} onClick={onStart}>
          Começar
        </button>
        <Button size="sm" variant="secondary" onClick={onCancel}>
          Cancelar
        </Button>
      </div>
    </section>
  );
}

function OfflineGame({
  game,
  storage,
  userId,
  onQueued,
  onFinished,
  onAgain,
  onLeave,
}: {
  game: Game;
  storage: OfflineStorage;
  userId: string;
  onQueued: () => void;
  onFinished: () => void;
  onAgain: () => void;
  onLeave: () => void;
}) {
  const { stored } = game;
  const feedback = stored.bundle;
  const views = useMemo(() => game.questions.map(viewOf), [game.questions]);
  const assets = useMemo(() => gameAssets(views, 0, feedback), [views, feedback]);
  const preload = useGamePreload(assets, true);
  const [answers, setAnswers] = useState<(AnswerView | null)[]>(() => game.questions.map(() => null));
  const [finished, setFinished] = useState(false);
  useLoadErrorToast(preload.stage === "error");
  useEffect(() => () => playback.stop(), []);

  if (preload.stage === "preloading") return <Preloading percent={criticalPercent(preload.progress)} />;
  if (preload.stage === "error") return <LoadError onRetry={preload.retry} />;
  if (finished) return <OfflineResult game={game} answers={answers} onAgain={onAgain} onLeave={onLeave} />;
  return (
    <OfflineQuestions
      game={game}
      storage={storage}
      userId={userId}
      answers={answers}
      onAnswer={(position, answer) => {
        setAnswers((current) => current.map((a, i) => (i === position ? answer : a)));
        onQueued();
      }}
      onFinish={() => {
        setFinished(true);
        onFinished();
      }}
    />
  );
}

/** Background Sync where the browser has it (Chromium): the service worker syncs when the connection is back. */
async function registerSync(tag: string) {
  try {
    const registration = await navigator.serviceWorker?.ready;
    const sync = (registration as (ServiceWorkerRegistration & { sync?: { register: (tag: string) => Promise<void> } }) | undefined)?.sync;
    await sync?.register(tag);
  } catch {
    // no Background Sync: the pages sync on `online` and when the app opens
  }
}

function OfflineQuestions({
  game,
  storage,
  userId,
  answers,
  onAnswer,
  onFinish,
}: {
  game: Game;
  storage: OfflineStorage;
  userId: string;
  answers: readonly (AnswerView | null)[];
  onAnswer: (position: number, answer: AnswerView) => void;
  onFinish: () => void;
}) {
  const { stored, questions } = game;
  const { enqueue, SYNC_TAG } = storage;
  const [index, setIndex] = useState(0);
  const [selected, setSelected] = useState<string | null>(null);
  const [leaving, setLeaving] = useState(false);
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const question = questions[index]!;
  const view = useMemo(() => viewOf(question), [question]);
  const answer = answers[index] ?? null;
  const total = questions.length;
  const last = index + 1 >= total;
  const { feedbackRef, legendRef, focusNext } = useQuestionFocus();
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(() => () => void (timer.current && clearTimeout(timer.current)), []);

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!selected || answer || saving) return;
    playback.unlock();
    setSaving(true);
    setError(null);
    const { card, correction } = question;
    const place = Number(selected);
    const correct = card ? selected === card.id : rightPlace(correction, place);
    const given = { key: crypto.randomUUID(), gameId: game.id, position: index, answeredAt: new Date().toISOString() };
    try {
      await enqueue([
        {
          userId,
          answer: card ? { ...given, cardId: card.id, chosenId: selected } : { ...given, entryId: correction.id, chosenIndex: place },
          game: { id: game.id, bundleId: stored.bundle.id, questionCount: total },
          bundleRef: { id: stored.bundle.id, signature: stored.bundle.signature },
        },
      ]);
    } catch {
      setSaving(false);
      setError("Não foi possível guardar sua resposta neste aparelho. Tente novamente.");
      return;
    }
    void registerSync(SYNC_TAG);
    setSaving(false);
    onAnswer(
      index,
      card
        ? { chosenId: selected, correctId: card.id, correct, word: card.word, translation: card.translation }
        : {
            chosenId: selected,
            correctId: String(correction.options.indexOf(correction.right)),
            correct,
            word: correction.right,
            translation: "",
            explanation: correction.explanation,
          },
    );
    playFeedback(correct, stored.bundle.sounds);
    focusNext.current = "feedback";
  };

  const next = (event: MouseEvent<HTMLButtonElement>) => {
    event.preventDefault();
    if (leaving) return;
    setLeaving(true);
    timer.current = setTimeout(() => {
      setIndex(index + 1);
      setSelected(null);
      setLeaving(false);
      focusNext.current = "question";
    }, NEXT_TRANSITION_MS);
  };

  return (
    <QuestionCard
      index={index}
      total={total}
      answers={answers}
      imageUrl={view.imageUrl}
      correction={view.correction}
      answer={answer}
      leaving={leaving}
    >
      <form onSubmit={(event) => void onSubmit(event)} className="mt-5">
        <OptionsFieldset
          correction={view.correction !== null}
          options={view.options}
          answer={answer}
          selected={selected}
          locked={Boolean(answer) || saving}
          legendRef={legendRef}
          onSelect={setSelected}
          onHear={(option) => !answer && !view.correction && hearOption(option)}
        />
        {answer ? null : (
          <Button type="submit" size="lg" disabled={!selected || saving} className="mt-5 w-full sm:w-auto">
            {saving ? "Verificando..." : "Verificar"}
          </Button>
        )}
      </form>
      {error ? (
        <p role="alert" className="mt-4 font-semibold text-rose-700 dark:text-rose-300">
          {error}
        </p>
      ) : null}

      <FeedbackRegion ref={feedbackRef} answer={answer} />

      {answer ? (
        <div className="mt-4 flex justify-end">
          {last ? (
            <Button size="lg" onClick={onFinish}>
              Finalizar
            </Button>
          ) : (
            <Button size="lg" onClick={next}>
              Próximo
              <ArrowRightIcon size={18} />
            </Button>
          )}
        </div>
      ) : null}
    </QuestionCard>
  );
}

function OfflineResult({
  game,
  answers,
  onAgain,
  onLeave,
}: {
  game: Game;
  answers: readonly (AnswerView | null)[];
  onAgain: () => void;
  onLeave: () => void;
}) {
  const { stored, questions } = game;
  const correct = answers.filter((a) => a?.correct).length;
  const tier = tierOf(correct, questions.length);
  const assets = stored.bundle.tiers[tier];
  const result: ResultView = {
    tier,
    percent: percentOf(correct, questions.length),
    correct,
    incorrect: answers.filter((a) => a && !a.correct).length,
    imageUrl: assets?.imageUrl ?? "",
    soundUrl: assets?.soundUrl ?? "",
  };
  // As online: a missed card's word and picture, a missed correction's right form and its explanation.
  const missed: MissedWord[] = questions
    .filter((_, i) => answers[i] && !answers[i]!.correct)
    .map(({ card, correction }) =>
      card
        ? { word: card.word, translation: card.translation, imageUrl: card.imageUrl, audioUrl: card.audioUrl }
        : { word: correction.right, translation: correction.explanation, imageUrl: null, audioUrl: null },
    );

  const played = useRef(false);
  useEffect(() => {
    if (played.current || !result.soundUrl) return;
    played.current = true;
    playTier(result.soundUrl);
  }, [result.soundUrl]);
  useEffect(() => () => playback.stop(), []);

  return (
    <section aria-labelledby="resultado" className="mt-4" data-testid="flashcards-result">
      <ResultCard result={result} />
      <p className="mt-4 text-sm text-slate-700 dark:text-slate-300">
        Suas respostas ficam guardadas neste aparelho e contam quando forem sincronizadas.
      </p>
      <div className="mt-5 flex flex-col gap-2 sm:flex-row">
        <Button size="lg" className="sm:flex-1" onClick={onAgain}>
          Jogar de novo
        </Button>
        <Button variant="secondary" size="lg" className="sm:flex-1" onClick={onLeave}>
          Escolher outro download
        </Button>
      </div>
      <MissedWords words={missed} idPrefix={game.id} hydrated />
    </section>
  );
}
