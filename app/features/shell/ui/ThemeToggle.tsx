import { MoonIcon, SunIcon } from "~/components/icons";
import { toggleTheme } from "../theme";

/**
 * Flips light/dark. Both icons are rendered and CSS shows the right one (`dark:`), so the server HTML
 * never disagrees with the theme the head script applied. Needs JavaScript; without it dark stays.
 */
export function ThemeToggle({ className = "", showLabel = false }: { className?: string; showLabel?: boolean }) {
  return (
    <button
      type="button"
      aria-label="Alternar tema"
      title="Alternar tema"
      onClick={() => toggleTheme()}
      className={`inline-flex items-center gap-2 rounded-lg p-2 text-slate-600 hover:bg-slate-200/70 hover:text-slate-900 dark:text-slate-300 dark:hover:bg-night-700 dark:hover:text-white ${className}`}
    >
      <MoonIcon className="dark:hidden" />
      <SunIcon className="hidden dark:block" />
      {showLabel ? (
        <span aria-hidden="true" className="text-sm">
          <span className="dark:hidden">Tema escuro</span>
          <span className="hidden dark:inline">Tema claro</span>
        </span>
      ) : null}
    </button>
  );
}
