// /pronunciation-game: the 100 levels in a 5-column grid (3 on phones), each with its stars, a ring
// of the best score, the number and the best score or a dash (spec §2, §9); the premium banner; the
// skeleton of 15 cards while a client navigation loads the list; the list's error screen.
import { isRouteErrorResponse, Link, useLocation, useNavigation, useRouteError } from "react-router";
import { buttonVariants } from "~/components/button";
import { cn } from "~/components/cn";
import { BUY_CREDITS_PATH } from "~/components/credits";
import { ErrorScreen } from "~/components/ErrorScreen";
import { AlertIcon, ArrowLeftIcon, PencilIcon, RefreshIcon, SparkleIcon } from "~/components/icons";
import { LinkList } from "~/components/LinkList";
import { errorMessage } from "~/lib/errors";
import { LEVELS_ADMIN_PATH } from "../admin/paths";
import type { LevelSummary } from "../attempts.server";
import { levelPath, PRONUNCIATION_PATH, shownScore, starsOf, tierOf } from "../scores";
import { PRONUNCIATION_TEXT as T } from "../texts";
import { ScoreRing, TIER_TEXT } from "./ScoreRing";

const SKELETON_CARDS = 15;
const GRID = "grid grid-cols-3 gap-3 md:grid-cols-5 md:gap-4";

function Header() {
  return (
    <>
      <Link
        to="/labs"
        className="inline-flex items-center gap-1.5 rounded-lg py-1 pr-2 text-sm font-semibold text-slate-700 hover:text-slate-950 dark:text-slate-200 dark:hover:text-white"
      >
        <ArrowLeftIcon size={18} />
        {T.backToLabs}
      </Link>
      <h1 className="mt-3 text-2xl font-bold tracking-tight sm:text-3xl">{T.title}</h1>
      <p className="mt-1 text-slate-700 dark:text-slate-300">{T.intro} Cada tentativa custa 1 crédito.</p>
    </>
  );
}

export function LevelGrid({ levels, isAdmin }: { levels: LevelSummary[]; isAdmin: boolean }) {
  return (
    <div className="mx-auto w-full max-w-5xl px-4 py-6 sm:px-6 sm:py-10">
      <Header />
      {isAdmin ? (
        <Link to={LEVELS_ADMIN_PATH} className={buttonVariants({ variant: "secondary", size: "sm", className: "mt-3" })}>
          <PencilIcon size={14} />
          {T.editLevels}
        </Link>
      ) : null}
      <PremiumBanner />
      <StarSymbols />
      <LinkList className={cn(GRID, "mt-6")} aria-label="Níveis">
        {levels.map((summary) => (
          <li key={summary.level}>
            <LevelCard summary={summary} />
          </li>
        ))}
      </LinkList>
    </div>
  );
}

/** StarIcon's outline, drawn at `x` (viewBox units) with relative lines after an absolute start. */
const starAt = (i: number) => `M${12 + 26 * i} 3.5l2.6 5.3 5.9.9-4.3 4.1 1 5.8-5.2-2.7-5.2 2.7 1-5.8-4.3-4.1 5.9-.9z`;
const starsPath = (indexes: number[], colour: string, filled: boolean) =>
  indexes.length
    ? `<path fill="${filled ? colour : "none"}" stroke="${colour}" stroke-width="1.8" stroke-linejoin="round" d="${indexes.map(starAt).join("")}"></path>`
    : "";
/**
 * The four rows of three stars (0–3 earned) as symbols, drawn once per page: a card shows one with `<use>`. Colours are
 * `.level-stars`' custom properties, which reach the symbol's copy through inheritance (light and dark).
 */
const STAR_SYMBOLS = [0, 1, 2, 3]
  .map(
    (earned) =>
      `<symbol id="level-stars-${earned}" viewBox="0 0 76 24">` +
      starsPath([0, 1, 2].slice(0, earned), "var(--star-on)", true) +
      starsPath([0, 1, 2].slice(earned), "var(--star-off)", false) +
      "</symbol>",
  )
  .join("");

function StarSymbols() {
  return <svg width="0" height="0" className="absolute" aria-hidden="true" dangerouslySetInnerHTML={{ __html: STAR_SYMBOLS }} />;
}

// 100 cards a page: every element, attribute and class name here is paid 100 times (server render, bytes, hydration),
// so the card's look lives in `.level-card`, its stars are a `<use>` of a symbol, its ring one element drawn by CSS and
// its link a plain `<a>` that the list navigates with.
function LevelCard({ summary: { level, bestScore } }: { summary: LevelSummary }) {
  const stars = starsOf(bestScore);
  const label = `${T.level(level)}: ${bestScore === null ? "sem pontuação" : `recorde ${shownScore(bestScore)}`}, ${stars} de 3 estrelas`;
  return (
    <a href={levelPath(level)} data-discover="true" aria-label={label} data-testid="level-card" className="level-card">
      <svg width="50" height="16" aria-hidden="true" className="level-stars">
        <use href={`#level-stars-${stars}`} />
      </svg>
      <ScoreRing score={bestScore} size="card" className="text-lg font-bold">
        {level}
      </ScoreRing>
      <span
        aria-hidden="true"
        className={cn("text-sm font-semibold", bestScore === null ? "text-slate-600 dark:text-slate-300" : TIER_TEXT[tierOf(bestScore)])}
      >
        {bestScore === null ? "—" : shownScore(bestScore)}
      </span>
    </a>
  );
}

function PremiumBanner() {
  return (
    <section
      aria-labelledby="premium-title"
      className="mt-5 flex flex-col gap-3 rounded-2xl bg-gradient-to-r from-indigo-600 to-violet-600 p-4 text-white shadow-sm sm:flex-row sm:items-center sm:justify-between"
    >
      <div className="flex items-start gap-3">
        <SparkleIcon size={22} className="mt-0.5 shrink-0" />
        <div>
          <h2 id="premium-title" className="font-semibold">
            {T.premiumTitle}
          </h2>
          <p className="text-sm text-indigo-50">{T.premiumText}</p>
        </div>
      </div>
      <Link to={BUY_CREDITS_PATH} className={buttonVariants({ variant: "secondary", size: "md", className: "shrink-0" })}>
        {T.premiumCta}
      </Link>
    </section>
  );
}

/** The list's skeleton: 15 cards (spec §9). */
export function LevelGridSkeleton() {
  return (
    <div className="mx-auto w-full max-w-5xl px-4 py-6 sm:px-6 sm:py-10" aria-busy="true" aria-label="Carregando os níveis">
      <Header />
      <ul className={cn(GRID, "mt-6")}>
        {Array.from({ length: SKELETON_CARDS }, (_, i) => (
          <li key={i} data-testid="level-skeleton" className="h-32 animate-pulse rounded-2xl bg-slate-200/80 dark:bg-night-800" />
        ))}
      </ul>
    </div>
  );
}

/** While a client navigation loads the list (from elsewhere), its skeleton instead of the old page. */
export function usePronunciationListSkeleton() {
  const navigation = useNavigation();
  const location = useLocation();
  const next = navigation.location;
  if (navigation.state !== "loading" || !next || navigation.formMethod) return null;
  if (next.pathname !== PRONUNCIATION_PATH || location.pathname === PRONUNCIATION_PATH) return null;
  return <LevelGridSkeleton />;
}

/** The list's error screen: 'Erro ao carregar os níveis: {message}', retry and back to Labs. 4xx as everywhere. */
export function LevelsErrorBoundary() {
  const error = useRouteError();
  const { pathname } = useLocation();
  if (isRouteErrorResponse(error) && error.status < 500) return <ErrorScreen error={error} />;
  const message = isRouteErrorResponse(error) ? `${error.status} ${error.statusText}`.trim() : errorMessage(error);
  return (
    <div role="alert" className="mx-auto flex max-w-md flex-col items-center px-4 py-12 text-center">
      <span className="mb-5 flex size-14 items-center justify-center rounded-2xl bg-rose-100 text-rose-700 dark:bg-rose-400/15 dark:text-rose-200">
        <AlertIcon size={28} />
      </span>
      <h1 className="text-xl font-bold tracking-tight">{T.loadError(message)}</h1>
      <div className="mt-6 flex flex-col gap-2 sm:flex-row">
        <a href={pathname} className={buttonVariants({ size: "lg" })}>
          <RefreshIcon size={18} />
          {T.retry}
        </a>
        <Link to="/labs" className={buttonVariants({ variant: "secondary", size: "lg" })}>
          <ArrowLeftIcon size={18} />
          {T.backToLabs}
        </Link>
      </div>
    </div>
  );
}
