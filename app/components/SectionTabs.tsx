// A page's sections as tabs that are links (each its own URL, so they work without JavaScript):
// the /config tabs and the /admin sections.
import { NavLink } from "react-router";
import { cn } from "./cn";

export type Section = { to: string; label: string; end?: boolean };

export function SectionTabs({ label, sections }: { label: string; sections: readonly Section[] }) {
  return (
    <nav aria-label={label} className="mt-4 border-b border-slate-200 dark:border-night-700">
      <ul className="-mb-px flex gap-1 overflow-x-auto">
        {sections.map((section) => (
          <li key={section.to}>
            <NavLink
              to={section.to}
              end={section.end}
              prefetch="intent"
              className={({ isActive }) =>
                cn(
                  "inline-block border-b-2 px-4 py-2.5 text-sm font-semibold whitespace-nowrap focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-500",
                  isActive
                    ? "border-indigo-600 text-indigo-800 dark:border-indigo-300 dark:text-indigo-200"
                    : "border-transparent text-slate-700 hover:text-slate-950 dark:text-slate-300 dark:hover:text-white",
                )
              }
            >
              {section.label}
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}
