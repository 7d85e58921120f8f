import { describe, expect, it, vi } from "vitest";
import { DEFAULT_THEME, THEME_INIT_SCRIPT, THEME_COLORS, parseTheme, readTheme, saveTheme, toggleTheme } from "./theme";

function fakeDocument(initialDark = true) {
  const classes = new Set(initialDark ? ["dark"] : []);
  const meta = {
    content: "",
    setAttribute(_name: string, value: string) {
      this.content = value;
    },
  };
  const documentElement = {
    classList: {
      contains: (c: string) => classes.has(c),
      toggle: (c: string, force?: boolean) => {
        const on = force ?? !classes.has(c);
        if (on) classes.add(c);
        else classes.delete(c);
        return on;
      },
    },
  };
  return { documentElement, querySelector: () => meta, classes, meta } as unknown as Document & {
    classes: Set<string>;
    meta: { content: string };
  };
}

function memoryStorage(initial: Record<string, string> = {}) {
  const map = new Map(Object.entries(initial));
  return {
    getItem: (k: string) => map.get(k) ?? null,
    setItem: (k: string, v: string) => void map.set(k, v),
    map,
  };
}

/** Runs the inline head script against a fake document/localStorage. */
function runInitScript(stored: string | null | Error, initialDark = true) {
  const doc = fakeDocument(initialDark);
  const localStorage = {
    getItem: () => {
      if (stored instanceof Error) throw stored;
      return stored;
    },
  };
  const warn = vi.fn();
  new Function("document", "localStorage", "console", THEME_INIT_SCRIPT)(doc, localStorage, { warn });
  return { dark: doc.classes.has("dark"), js: doc.classes.has("js"), color: doc.meta.content, warn };
}

describe("parseTheme", () => {
  it("accepts only exactly 'light' or 'dark'", () => {
    expect(parseTheme("light")).toBe("light");
    expect(parseTheme("dark")).toBe("dark");
  });

  it("defaults to dark for anything else", () => {
    expect(DEFAULT_THEME).toBe("dark");
    for (const value of [null, undefined, "", "Light", "DARK", " light", "system", "true", 1, {}]) {
      expect(parseTheme(value)).toBe("dark");
    }
  });
});

describe("readTheme / saveTheme", () => {
  it("reads the saved value through parseTheme", () => {
    expect(readTheme(memoryStorage({ theme: "light" }))).toBe("light");
    expect(readTheme(memoryStorage({ theme: "blue" }))).toBe("dark");
    expect(readTheme(memoryStorage())).toBe("dark");
  });

  it("only warns when storage fails", () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const broken = {
      getItem: () => {
        throw new Error("blocked");
      },
      setItem: () => {
        throw new Error("quota");
      },
    };
    expect(readTheme(broken)).toBe("dark");
    expect(() => saveTheme("light", broken)).not.toThrow();
    expect(warn).toHaveBeenCalledTimes(2);
    warn.mockRestore();
  });
});

describe("toggleTheme", () => {
  it("flips the dark class, the theme colour and saves the new value", () => {
    const doc = fakeDocument(true);
    const storage = memoryStorage();
    expect(toggleTheme(doc, storage)).toBe("light");
    expect(doc.classes.has("dark")).toBe(false);
    expect(doc.meta.content).toBe(THEME_COLORS.light);
    expect(storage.map.get("theme")).toBe("light");
    expect(toggleTheme(doc, storage)).toBe("dark");
    expect(doc.classes.has("dark")).toBe(true);
    expect(storage.map.get("theme")).toBe("dark");
  });
});

describe("THEME_INIT_SCRIPT (runs before first paint)", () => {
  it("marks the page as running scripts (js), whatever the theme", () => {
    expect(runInitScript("light").js).toBe(true);
    expect(runInitScript(null).js).toBe(true);
  });

  it("applies a saved light theme", () => {
    expect(runInitScript("light")).toMatchObject({ dark: false, color: THEME_COLORS.light });
  });

  it("keeps or applies dark for 'dark', missing or invalid values", () => {
    expect(runInitScript("dark").dark).toBe(true);
    expect(runInitScript(null).dark).toBe(true);
    expect(runInitScript("Light").dark).toBe(true);
    expect(runInitScript("system", false).dark).toBe(true);
  });

  it("falls back to dark and only warns when storage throws", () => {
    const result = runInitScript(new Error("SecurityError"));
    expect(result.dark).toBe(true);
    expect(result.warn).toHaveBeenCalledOnce();
  });
});
