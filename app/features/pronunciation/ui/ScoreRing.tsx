// A score as a progress ring (spec §9: the result's ring is 160 px; the level cards use a small one).
import { cn } from "~/components/cn";
import { shownScore, tierOf, type ScoreTier } from "../scores";

/** Colours per tier (text/stroke), with contrast on light and dark backgrounds. */
export const TIER_TEXT: Record<ScoreTier, string> = {
  good: "text-emerald-700 dark:text-emerald-300",
  fair: "text-amber-700 dark:text-amber-300",
  poor: "text-rose-700 dark:text-rose-300",
};

export const TIER_SURFACE: Record<ScoreTier, string> = {
  good: "bg-emerald-50 ring-emerald-200 dark:bg-emerald-400/10 dark:ring-emerald-400/30",
  fair: "bg-amber-50 ring-amber-200 dark:bg-amber-400/10 dark:ring-amber-400/30",
  poor: "bg-rose-50 ring-rose-200 dark:bg-rose-400/10 dark:ring-rose-400/30",
};

/** The ring's two sizes (`.score-ring-*` in tailwind.css): a level card's and the result's (160 px, spec §9). */
const RING_SIZE = { card: "score-ring-card", result: "score-ring-result" } as const;

/** The arc's colour per tier (`--ring-color`, light and dark, in tailwind.css). */
const TIER_RING: Record<ScoreTier, string> = { good: "score-ring-good", fair: "score-ring-fair", poor: "score-ring-poor" };

/**
 * One element, drawn by CSS (`.score-ring`: a conic gradient masked to a ring, the track where there is no score): the
 * level list draws 100 of them, so each is a class and a custom property instead of an SVG of two circles.
 */
export function ScoreRing({
  score,
  size,
  label,
  className,
  children,
}: {
  score: number | null;
  size: keyof typeof RING_SIZE;
  /** Accessible text of the ring (e.g. "Pontuação geral: 82"); without it the ring is decoration. */
  label?: string;
  className?: string;
  children?: React.ReactNode;
}) {
  return (
    <div
      {...(label ? { role: "img", "aria-label": label } : { "aria-hidden": true })}
      className={cn("score-ring", RING_SIZE[size], score !== null && TIER_RING[tierOf(score)], className)}
      style={score === null ? undefined : ({ "--ring-score": Math.min(100, Math.max(0, score)) } as React.CSSProperties)}
    >
      {children ?? (score === null ? "—" : shownScore(score))}
    </div>
  );
}
