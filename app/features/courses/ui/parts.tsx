// Small shared pieces of the learner course pages: badges, admin edit links, the card style.
import { Fragment, type ReactNode } from "react";
import { Link } from "react-router";
import { ADMIN_PANEL_ID } from "~/components/admin/panel-id";
import { cn } from "~/components/cn";
import { CheckIcon, PencilIcon } from "~/components/icons";
import { progressBadge } from "../format";

export const cardClass = "rounded-2xl border border-slate-200 bg-white shadow-sm dark:border-night-700 dark:bg-night-900";

/** "Concluído" / "N% Completo" (nothing at 0 %). */
export function ProgressBadge({ percent, className = "" }: { percent: number; className?: string }) {
  const label = progressBadge(percent);
  if (!label) return null;
  const done = percent >= 100;
  return (
    <span
      className={cn(
        "inline-flex items-center gap-1 rounded-full px-2.5 py-0.5 text-xs font-semibold",
        done ? "bg-emerald-600 text-white" : "bg-white/90 text-indigo-900",
        className,
      )}
    >
      {done ? <CheckIcon size={14} /> : null}
      {label}
    </span>
  );
}

export function CompletedBadge({ label = "Concluída" }: { label?: string }) {
  return (
    <span className="inline-flex items-center gap-1 rounded-full bg-emerald-100 px-2.5 py-0.5 text-xs font-semibold text-emerald-900 dark:bg-emerald-400/15 dark:text-emerald-100">
      <CheckIcon size={14} />
      {label}
    </span>
  );
}

/**
 * An admin-only link to a nested edit route (the admin dialogs render in the page's <Outlet />).
 * `className` is merged (tailwind-merge), so "hidden md:inline-flex" really hides it on small screens.
 */
export function EditLink({ to, children, className = "" }: { to: string; children: ReactNode; className?: string }) {
  return (
    <Link
      // Without JavaScript the admin form renders as a page section: jump straight to it.
      to={`${to}#${ADMIN_PANEL_ID}`}
      preventScrollReset
      className={cn(
        "inline-flex items-center gap-1.5 rounded-lg border border-amber-300 bg-amber-50 px-2.5 py-1 text-xs font-semibold text-amber-950 hover:bg-amber-100 dark:border-amber-300/40 dark:bg-amber-300/10 dark:text-amber-100 dark:hover:bg-amber-300/20",
        className,
      )}
    >
      <PencilIcon size={14} />
      {children}
    </Link>
  );
}

/** Lines separated by <br /> (subtitles whose `||` separators became line breaks). */
export function LineBreaks({ lines }: { lines: string[] }) {
  return (
    <>
      {lines.map((line, index) => (
        <Fragment key={index}>
          {index > 0 ? <br /> : null}
          {line}
        </Fragment>
      ))}
    </>
  );
}
