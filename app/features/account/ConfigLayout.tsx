// /config's frame: the title and the tabs Conta, Senha, App (and Admin for admins). Each tab is its own
// URL (/config, /config/senha, /config/app, /config/admin), so every tab works without JavaScript.
import { NavLink, Outlet } from "@remix-run/react";
import { cn } from "~/components/cn";

export const CONFIG_TABS = [
  { to: "/config", label: "Conta", end: true, adminOnly: false },
  { to: "/config/senha", label: "Senha", end: false, adminOnly: false },
  { to: "/config/app", label: "App", end: false, adminOnly: false },
  { to: "/config/admin", label: "Admin", end: false, adminOnly: true },
] as const;

/** `?tab=` of older links (e.g. `/config?tab=account#creditos`) → the tab's own path. */
export const TAB_PATHS: Record<string, string> = { account: "/config", password: "/config/senha", app: "/config/app", admin: "/config/admin" };

export function ConfigLayout({ isAdmin }: { isAdmin: boolean }) {
  return (
    <div className="mx-auto w-full max-w-4xl px-4 py-6 sm:px-6 sm:py-10">
      <h1 className="text-2xl font-bold tracking-tight sm:text-3xl">Configurações</h1>
      <nav aria-label="Seções das configurações" className="mt-4 border-b border-slate-200 dark:border-night-700">
        <ul className="-mb-px flex gap-1 overflow-x-auto">
          {CONFIG_TABS.filter((tab) => isAdmin || !tab.adminOnly).map((tab) => (
            <li key={tab.to}>
              <NavLink
                to={tab.to}
                end={tab.end}
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
                {tab.label}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
      <div className="mt-6">
        <Outlet />
      </div>
    </div>
  );
}
