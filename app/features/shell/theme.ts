// Theme (spec §4): light or dark, default dark. A saved value is used only if it is exactly "light" or
// "dark"; each change toggles the `dark` class on <html> and saves; storage failures only warn.

export type Theme = "light" | "dark";

export const THEME_STORAGE_KEY = "theme";
export const DEFAULT_THEME: Theme = "dark";
/** Browser UI colour per theme (<meta name="theme-color">). Dark matches the manifest. */
export const THEME_COLORS: Record<Theme, string> = { dark: "#0b1020", light: "#f8fafc" };

/** Only exactly "light" or "dark" is accepted; anything else means the default (dark). */
export function parseTheme(value: unknown): Theme {
  return value === "light" || value === "dark" ? value : DEFAULT_THEME;
}

type StorageLike = Pick<Storage, "getItem" | "setItem">;

export function readTheme(storage: StorageLike | undefined = safeLocalStorage()): Theme {
  try {
    return parseTheme(storage?.getItem(THEME_STORAGE_KEY));
  } catch (error) {
    console.warn("[theme] não foi possível ler o tema salvo", error);
    return DEFAULT_THEME;
  }
}

export function saveTheme(theme: Theme, storage: StorageLike | undefined = safeLocalStorage()) {
  try {
    storage?.setItem(THEME_STORAGE_KEY, theme);
  } catch (error) {
    console.warn("[theme] não foi possível salvar o tema", error);
  }
}

/** The theme currently shown (the class on <html> is the source of truth after first paint). */
export function currentTheme(root: Element = document.documentElement): Theme {
  return root.classList.contains("dark") ? "dark" : "light";
}

export function applyTheme(theme: Theme, doc: Document = document) {
  const root = doc.documentElement;
  root.classList.toggle("dark", theme === "dark");
  doc.querySelector('meta[name="theme-color"]')?.setAttribute("content", THEME_COLORS[theme]);
}

/** Flips the theme, applies it and saves it. Returns the new theme. */
export function toggleTheme(doc: Document = document, storage?: StorageLike): Theme {
  const next: Theme = currentTheme(doc.documentElement) === "dark" ? "light" : "dark";
  applyTheme(next, doc);
  saveTheme(next, storage ?? safeLocalStorage());
  return next;
}

function safeLocalStorage(): StorageLike | undefined {
  try {
    return typeof localStorage === "undefined" ? undefined : localStorage;
  } catch (error) {
    // Accessing localStorage itself throws when storage is blocked (e.g. some privacy modes).
    console.warn("[theme] armazenamento indisponível", error);
    return undefined;
  }
}

/**
 * Inline, render-blocking script placed in <head>: applies the saved theme before first paint so
 * there is no flash. Same rule as parseTheme (kept tiny on purpose; covered by theme.test.ts).
 * Without JavaScript the server-rendered `class="dark"` stays, i.e. the default. It also marks the page `js`, so
 * what only a page without scripts needs (`[.js_&]:hidden`) never flashes before hydration.
 */
export const THEME_INIT_SCRIPT = `(function(){var d=document.documentElement,t="${DEFAULT_THEME}";d.classList.toggle("js",true);try{var s=localStorage.getItem("${THEME_STORAGE_KEY}");if(s==="light"||s==="dark")t=s}catch(e){console.warn("[theme]",e)}d.classList.toggle("dark",t==="dark");var m=document.querySelector('meta[name="theme-color"]');if(m)m.setAttribute("content",t==="dark"?"${THEME_COLORS.dark}":"${THEME_COLORS.light}")})();`;
