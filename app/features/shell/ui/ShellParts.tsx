import { Form, Link } from "react-router";
import { LogOutIcon, SparkleIcon } from "~/components/icons";
import { avatarUrl } from "~/lib/avatars";
import { SIDEBAR_ITEMS, isNavItemActive } from "../nav";
import { creditsLabel, type ShellUser } from "../types";

export function NavList({ pathname, collapsed = false, onNavigate }: { pathname: string; collapsed?: boolean; onNavigate?: () => void }) {
  return (
    <ul className="space-y-1">
      {SIDEBAR_ITEMS.map((item) => {
        const active = isNavItemActive(item, pathname);
        const Icon = item.icon;
        return (
          <li key={item.to}>
            <Link
              to={item.to}
              prefetch="intent"
              onClick={onNavigate}
              aria-current={active ? "page" : undefined}
              title={collapsed ? item.label : undefined}
              className={`flex h-10 items-center rounded-lg text-sm font-medium transition-colors ${
                collapsed ? "w-9 justify-center" : "gap-3 px-3"
              } ${
                active
                  ? "bg-indigo-50 text-indigo-700 dark:bg-indigo-400/15 dark:text-indigo-100"
                  : "text-slate-700 hover:bg-slate-100 hover:text-slate-900 dark:text-slate-300 dark:hover:bg-night-800 dark:hover:text-white"
              }`}
            >
              <Icon className="shrink-0" />
              <span className={collapsed ? "sr-only" : "truncate"}>{item.label}</span>
            </Link>
          </li>
        );
      })}
    </ul>
  );
}

export function UserSummary({ user, collapsed = false }: { user: ShellUser; collapsed?: boolean }) {
  return (
    <div className={`flex items-center ${collapsed ? "justify-center" : "gap-3"}`} title={collapsed ? user.name : undefined}>
      {/* The learner's avatar (/config/app); decorative, the name follows. */}
      <img
        src={avatarUrl(user.avatar)}
        alt=""
        width={36}
        height={36}
        data-testid="user-avatar"
        className="size-9 shrink-0 rounded-full bg-indigo-100 p-1 dark:bg-indigo-400/20"
      />
      <div className={collapsed ? "sr-only" : "min-w-0"}>
        <p className="truncate text-sm font-semibold">{user.name}</p>
        <p className="flex items-center gap-1 text-xs text-slate-600 dark:text-slate-300">
          <SparkleIcon size={12} className="text-indigo-600 dark:text-indigo-300" />
          {creditsLabel(user.monthlyCredits)}
        </p>
      </div>
    </div>
  );
}

/** Posts to the lead's /signout action (works without JavaScript). */
export function SignOutButton({ compact = false, className = "" }: { compact?: boolean; className?: string }) {
  return (
    <Form method="post" action="/signout">
      <button
        type="submit"
        aria-label={compact ? "Sair" : undefined}
        title={compact ? "Sair" : undefined}
        className={`inline-flex items-center gap-2 rounded-lg p-2 text-sm font-medium text-slate-600 hover:bg-rose-50 hover:text-rose-700 dark:text-slate-300 dark:hover:bg-rose-500/15 dark:hover:text-rose-200 ${className}`}
      >
        <LogOutIcon />
        {compact ? null : <span>Sair</span>}
      </button>
    </Form>
  );
}
