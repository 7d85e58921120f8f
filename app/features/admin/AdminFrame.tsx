// /admin's frame: the title and its sections (Painel, Usuários), each its own URL.
import { NavLink } from "@remix-run/react";
import type { ReactNode } from "react";
import { cn } from "~/components/cn";

const SECTIONS = [
  { to: "/admin", label: "Painel", end: true },
  { to: "/admin/users", label: "Usuários", end: false },
] as const;

export function AdminFrame({ children }: { children: ReactNode }) {
  return (
    <div className="mx-auto w-full max-w-5xl px-4 py-6 sm:px-6 sm:py-10">
      <h1 className="text-2xl font-bold tracking-tight sm:text-3xl">Administração</h1>
      <nav aria-label="Seções da administração" className="mt-4 border-b border-slate-200 dark:border-night-700">
        <ul className="-mb-px flex gap-1 overflow-x-auto">
          {SECTIONS.map((section) => (
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
      <div className="mt-6">{children}</div>
    </div>
  );
}
