// Chrome for signed-in pages: collapsible desktop sidebar, mobile top bar + overlay sheet, mobile
// bottom navigation. Everything navigates with plain links, so it works before/without JavaScript.
import { useCallback, useEffect, useState, type ReactNode } from "react";
import { Link, useLocation } from "react-router";
import { NikaLogo, PanelLeftIcon, SparkleIcon } from "~/components/icons";
import { whenSettled } from "~/lib/when-settled";
import { browserPreloadEnvironment, fetchPreloadList, scheduleAfterSignInPreload } from "../after-sign-in-preload";
import { BOTTOM_ITEMS, isNavItemActive } from "../nav";
import { sidebarCookie } from "../sidebar-state";
import { creditsLabel, MAIN_ID, type ShellData, type ShellUser } from "../types";
import { MobileMenuButton } from "./MobileMenuButton";
import { NavList, SignOutButton, UserSummary } from "./ShellParts";
import { ThemeToggle } from "./ThemeToggle";
import { useBottomNavHidden } from "./use-bottom-nav-hidden";
import { useSessionCheck } from "./use-session-check";

const DESKTOP_QUERY = "(min-width: 768px)";

export function AppShell({ data, children }: { data: ShellData; children: ReactNode }) {
  const [sidebarOpen, setSidebarOpen] = useState(data.sidebarOpen);
  const [sheetOpen, setSheetOpen] = useState(false);

  const toggleSidebar = useCallback(() => {
    setSidebarOpen((open) => {
      const next = !open;
      document.cookie = sidebarCookie(next, { secure: location.protocol === "https:" });
      return next;
    });
  }, []);

  // A block or an ended session takes the page to /blocked or /signin without waiting for a navigation.
  useSessionCheck();

  // Spec §9: warm what the learner is about to need, once per session, after the first second.
  useEffect(() => scheduleAfterSignInPreload(fetchPreloadList, browserPreloadEnvironment()), []);

  // Offline practice: whose downloads and queued answers this browser may use (the player has no server to
  // ask), and the queue synced now and when the connection comes back. Loaded once the page has settled.
  const userId = data.user.id;
  useEffect(() => {
    let stop: (() => void) | undefined;
    let live = true;
    const cancel = whenSettled(() => {
      import("~/features/offline").then(
        ({ markAccount }) => live && (stop = markAccount(userId)),
        () => {}, // the chunk could not load (offline): the next page load writes it
      );
    });
    return () => {
      live = false;
      cancel();
      stop?.();
    };
  }, [userId]);

  // Ctrl+B / ⌘+B: the sidebar on desktop, the overlay sheet on small screens.
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (!(event.ctrlKey || event.metaKey) || event.altKey || event.key.toLowerCase() !== "b") return;
      event.preventDefault();
      if (window.matchMedia(DESKTOP_QUERY).matches) toggleSidebar();
      else setSheetOpen((open) => !open);
    };
    window.addEventListener("keydown", onKeyDown);
    return () => window.removeEventListener("keydown", onKeyDown);
  }, [toggleSidebar]);

  return (
    <div className="flex min-h-dvh">
      <DesktopSidebar open={sidebarOpen} onToggle={toggleSidebar} user={data.user} appName={data.appName} />
      <div className="flex min-w-0 flex-1 flex-col">
        <header className="sticky top-0 z-30 flex h-14 items-center gap-1 border-b border-slate-200 bg-white/90 px-2 backdrop-blur supports-[backdrop-filter]:bg-white/75 md:hidden dark:border-night-800 dark:bg-night-950/90 dark:supports-[backdrop-filter]:bg-night-950/75">
          <MobileMenuButton open={sheetOpen} onOpenChange={setSheetOpen} appName={data.appName} user={data.user} />
          <Link to="/" className="flex items-center gap-2 rounded-lg px-1 py-1 text-lg font-bold tracking-tight">
            <NikaLogo size={28} />
            {data.appName}
          </Link>
          <span className="ml-auto flex items-center gap-1">
            <span className="flex items-center gap-1 rounded-full bg-indigo-50 px-2.5 py-1 text-xs font-semibold text-indigo-700 dark:bg-indigo-400/15 dark:text-indigo-200">
              <SparkleIcon size={14} />
              {creditsLabel(data.user.monthlyCredits)}
            </span>
            <ThemeToggle />
          </span>
        </header>
        <main id={MAIN_ID} tabIndex={-1} className="flex-1 pb-[calc(5rem+env(safe-area-inset-bottom))] outline-none md:pb-0">
          {children}
        </main>
      </div>
      <BottomNav />
    </div>
  );
}

function DesktopSidebar({ open, onToggle, user, appName }: { open: boolean; onToggle: () => void; user: ShellUser; appName: string }) {
  const { pathname, search } = useLocation();
  return (
    <aside
      id="app-sidebar"
      aria-label="Menu lateral"
      data-state={open ? "expanded" : "collapsed"}
      className={`sticky top-0 hidden h-dvh shrink-0 flex-col overflow-hidden border-r border-slate-200 bg-white transition-[width] duration-200 ease-out md:flex dark:border-night-800 dark:bg-night-900 ${
        open ? "w-64" : "w-12"
      }`}
    >
      <div className={`flex h-14 shrink-0 items-center ${open ? "justify-between pr-2 pl-3" : "justify-center"}`}>
        {open ? (
          <Link to="/" className="flex min-w-0 items-center gap-2 rounded-lg py-1 text-lg font-bold tracking-tight">
            <NikaLogo size={28} />
            <span className="truncate">{appName}</span>
          </Link>
        ) : null}
        {/* Without JS this posts to /resources/sidebar, which sets the cookie and redirects back. */}
        <form
          method="post"
          action="/resources/sidebar"
          onSubmit={(event) => {
            event.preventDefault();
            onToggle();
          }}
        >
          <input type="hidden" name="open" value={String(!open)} />
          <input type="hidden" name="redirectTo" value={pathname + search} />
          <button
            type="submit"
            aria-label={open ? "Recolher menu lateral" : "Expandir menu lateral"}
            aria-expanded={open}
            aria-controls="app-sidebar-nav"
            title={`${open ? "Recolher" : "Expandir"} menu (Ctrl+B)`}
            className="rounded-lg p-2 text-slate-600 hover:bg-slate-100 hover:text-slate-900 dark:text-slate-300 dark:hover:bg-night-700 dark:hover:text-white"
          >
            <PanelLeftIcon />
          </button>
        </form>
      </div>

      <nav id="app-sidebar-nav" aria-label="Navegação principal" className={`flex-1 overflow-y-auto ${open ? "px-2" : "px-1.5"} py-2`}>
        <NavList pathname={pathname} collapsed={!open} />
      </nav>

      <div className={`shrink-0 border-t border-slate-200 dark:border-night-800 ${open ? "p-3" : "px-1.5 py-3"}`}>
        <UserSummary user={user} collapsed={!open} />
        <div className={`mt-2 flex ${open ? "items-center justify-between" : "flex-col items-center gap-1"}`}>
          <ThemeToggle />
          <SignOutButton compact={!open} />
        </div>
      </div>
    </aside>
  );
}

function BottomNav() {
  const { pathname } = useLocation();
  const hidden = useBottomNavHidden();
  return (
    <nav
      aria-label="Navegação rápida"
      className={`fixed inset-x-0 bottom-0 z-40 border-t border-slate-200 bg-white/95 pb-[env(safe-area-inset-bottom)] backdrop-blur md:hidden dark:border-night-800 dark:bg-night-900/95 ${
        hidden ? "hidden" : ""
      }`}
    >
      <ul className="grid h-16 grid-cols-5">
        {BOTTOM_ITEMS.map((item) => {
          const active = isNavItemActive(item, pathname);
          const Icon = item.icon;
          return (
            <li key={item.to} className="flex">
              <Link
                to={item.to}
                prefetch="intent"
                aria-current={active ? "page" : undefined}
                className={`flex flex-1 flex-col items-center justify-center gap-0.5 text-[11px] font-medium ${
                  active ? "text-indigo-700 dark:text-indigo-200" : "text-slate-600 dark:text-slate-300"
                }`}
              >
                <span
                  className={`flex h-7 w-12 items-center justify-center rounded-full transition-colors ${
                    active ? "bg-indigo-100 dark:bg-indigo-400/20" : ""
                  }`}
                >
                  <Icon size={20} />
                </span>
                {item.label}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
