import type { ReactNode } from "react";
import { Link } from "react-router";
import { ArrowRightIcon } from "~/components/icons";

export type FeatureCardProps = {
  to: string;
  /** "none" where opening the page has an effect (a chat mode starts a conversation). */
  prefetch?: "intent" | "none";
  title: string;
  description: string;
  art: ReactNode;
  /** Tailwind gradient classes for the art panel, e.g. "from-indigo-500 to-violet-600". */
  gradient: string;
  badge?: string;
};

/** A large navigation card: a real link (works without JS), gradient + inline SVG art, no images. */
export function FeatureCard({ to, title, description, art, gradient, badge, prefetch = "intent" }: FeatureCardProps) {
  return (
    <Link
      to={to}
      prefetch={prefetch}
      className="group flex items-stretch gap-4 overflow-hidden rounded-3xl border border-slate-200 bg-white p-3 shadow-sm transition hover:-translate-y-0.5 hover:border-indigo-300 hover:shadow-lg hover:shadow-indigo-500/10 focus-visible:outline-3 sm:flex-col sm:gap-0 sm:p-0 dark:border-night-700 dark:bg-night-900 dark:hover:border-indigo-400/50 dark:hover:shadow-black/40"
    >
      <div
        className={`relative flex size-24 shrink-0 items-center justify-center overflow-hidden rounded-2xl bg-gradient-to-br sm:h-40 sm:w-full sm:rounded-none ${gradient}`}
      >
        <div aria-hidden="true" className="absolute -top-6 -right-6 size-24 rounded-full bg-white/15" />
        <div aria-hidden="true" className="absolute -bottom-8 -left-4 size-20 rounded-full bg-black/10" />
        <div className="relative w-16 sm:w-28">{art}</div>
      </div>
      <div className="flex min-w-0 flex-1 flex-col justify-center py-1 pr-1 sm:p-5">
        <div className="flex flex-wrap items-center gap-x-2 gap-y-1">
          <h2 className="text-lg font-bold tracking-tight sm:text-xl">{title}</h2>
          {badge ? (
            <span className="rounded-full bg-amber-100 px-2 py-0.5 text-[11px] font-bold tracking-wider text-amber-900 dark:bg-amber-300/15 dark:text-amber-200">
              {badge}
            </span>
          ) : null}
        </div>
        <p className="mt-1 text-sm leading-snug text-slate-600 dark:text-slate-300">{description}</p>
        <span
          aria-hidden="true"
          className="mt-3 hidden items-center gap-1 text-sm font-semibold text-indigo-700 sm:inline-flex dark:text-indigo-300"
        >
          Abrir
          <ArrowRightIcon size={16} className="transition-transform group-hover:translate-x-0.5" />
        </span>
      </div>
    </Link>
  );
}

/** The three-column grid of feature cards on the home and Labs pages, one list item per card. */
export function FeatureCardGrid({ cards }: { cards: readonly FeatureCardProps[] }) {
  return (
    <ul className="mt-6 grid gap-4 sm:grid-cols-3 sm:gap-5">
      {cards.map((card) => (
        <li key={card.to} className="flex flex-col">
          <FeatureCard {...card} />
        </li>
      ))}
    </ul>
  );
}
