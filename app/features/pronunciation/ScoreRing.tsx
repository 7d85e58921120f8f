// A score as a progress ring (spec §9: the result's ring is 160 px; the level cards use a small one).
import { cn } from "~/components/cn";
import { shownScore, tierOf, type ScoreTier } from "./scores";

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

export function ScoreRing({
  score,
  size,
  label,
  className,
  children,
}: {
  score: number | null;
  size: number;
  /** Accessible text of the ring (e.g. "Pontuação geral: 82"); without it the ring is decoration. */
  label?: string;
  className?: string;
  children?: React.ReactNode;
}) {
  if (score === null)
    // No score: the track alone, drawn as a border (one element instead of a ring SVG over the number).
    return (
      <div
        {...(label ? { role: "img", "aria-label": label } : { "aria-hidden": true })}
        className={cn("grid place-items-center rounded-full border-slate-200 text-center dark:border-night-700", className)}
        style={{ width: size, height: size, borderWidth: strokeOf(size) }}
      >
        {children ?? "—"}
      </div>
    );
  return (
    <div
      {...(label ? { role: "img", "aria-label": label } : { "aria-hidden": true })}
      className={cn("relative inline-grid place-items-center", className)}
      style={{ width: size, height: size }}
    >
      <svg
        width={size}
        height={size}
        viewBox={`0 0 ${size} ${size}`}
        aria-hidden="true"
        className="-rotate-90"
        dangerouslySetInnerHTML={{ __html: ringCircles(score, size) }}
      />
      <span aria-hidden="true" className="absolute inset-0 grid place-items-center text-center">
        {children ?? shownScore(score)}
      </span>
    </div>
  );
}

/**
 * The ring's track and its arc as SVG markup: the level list draws 100 rings, and one string per ring is one element
 * for React to render and hydrate instead of three.
 */
const strokeOf = (size: number) => Math.max(4, Math.round(size / 14));

function ringCircles(score: number, size: number): string {
  const stroke = strokeOf(size);
  const radius = (size - stroke) / 2;
  const centre = size / 2;
  const track = `<circle cx="${centre}" cy="${centre}" r="${radius}" fill="none" stroke-width="${stroke}" class="stroke-slate-200 dark:stroke-night-700"></circle>`;
  const circumference = 2 * Math.PI * radius;
  const filled = Math.min(100, Math.max(0, score)) / 100;
  return `${track}<circle cx="${centre}" cy="${centre}" r="${radius}" fill="none" stroke="currentColor" stroke-width="${stroke}" stroke-linecap="round" stroke-dasharray="${circumference * filled} ${circumference}" class="${TIER_TEXT[tierOf(score)]}"></circle>`;
}
