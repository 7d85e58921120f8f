import type { ManualChunkMeta, ModuleInfo } from "rollup";
import { describe, expect, it } from "vitest";
import { shellChunks } from "./vite-chunks";

const ENTRY = "/w/node_modules/@react-router/dev/dist/config/defaults/entry.client.tsx";
const ROOT = "/w/app/root.tsx";
const LAYOUT = "/w/app/routes/_app+/_layout.tsx";
const SIGNIN = "/w/app/routes/_auth+/signin.tsx";
const LESSON = "/w/app/routes/_app+/courses+/lessons.$lessonId.tsx";
const CLIENT_ROUTE = "?__react-router-build-client-route";

/** A module graph as Rollup shows it to `manualChunks`: each id with its static imports (route wrappers included). */
function graph(imports: Record<string, string[]>): ManualChunkMeta {
  return {
    getModuleIds: () => Object.keys(imports)[Symbol.iterator](),
    getModuleInfo: (id) => (id in imports ? ({ id, importedIds: imports[id] } as unknown as ModuleInfo) : null),
  };
}

function chunksOf(imports: Record<string, string[]>) {
  const meta = graph(imports);
  const manualChunk = shellChunks();
  return Object.fromEntries(Object.keys(imports).map((id) => [id, manualChunk(id, meta) ?? null]));
}

describe("shellChunks", () => {
  const app = {
    [ENTRY]: ["/w/node_modules/react-dom/client.js", "/w/node_modules/react-router/dist/development/index.mjs"],
    "/w/node_modules/react-dom/client.js": ["/w/node_modules/react/index.js"],
    "/w/node_modules/react/index.js": [],
    "/w/node_modules/react-router/dist/development/index.mjs": ["/w/node_modules/react/index.js"],
    [ROOT + CLIENT_ROUTE]: [ROOT],
    [ROOT]: ["/w/node_modules/react-router/dist/development/index.mjs", "/w/app/components/ErrorScreen.tsx", "/w/app/tailwind.css?url"],
    "/w/app/components/ErrorScreen.tsx": ["/w/node_modules/react/index.js"],
    "/w/app/tailwind.css?url": [],
    [LAYOUT + CLIENT_ROUTE]: [LAYOUT],
    [LAYOUT]: ["/w/app/features/shell/Sidebar.tsx", "/w/app/components/notice.tsx"],
    "/w/app/features/shell/Sidebar.tsx": ["/w/app/features/shell/nav.ts", "/w/node_modules/react/index.js"],
    "/w/app/features/shell/nav.ts": [],
    "/w/app/components/notice.tsx": ["/w/app/components/tones.ts"],
    "/w/app/components/tones.ts": [],
    [SIGNIN + CLIENT_ROUTE]: [SIGNIN],
    [SIGNIN]: ["/w/app/components/notice.tsx", "/w/app/components/forms.tsx"],
    "/w/app/components/forms.tsx": ["/w/node_modules/zod/index.js"],
    "/w/node_modules/zod/index.js": [],
    [LESSON + CLIENT_ROUTE]: [LESSON],
    [LESSON]: ["/w/app/components/forms.tsx", "/w/app/features/shell/nav.ts"],
  };

  it("puts what the entry and the root import statically into `framework`", () => {
    const chunks = chunksOf(app);
    for (const id of ["/w/node_modules/react/index.js", "/w/node_modules/react-dom/client.js", "/w/app/components/ErrorScreen.tsx"]) {
      expect(chunks[id], id).toBe("framework");
    }
  });

  it("puts what only the signed-in layout adds into `app-shell`", () => {
    const chunks = chunksOf(app);
    expect(chunks["/w/app/features/shell/Sidebar.tsx"]).toBe("app-shell");
    // A page under the layout importing a shell module does not move it out.
    expect(chunks["/w/app/features/shell/nav.ts"]).toBe("app-shell");
  });

  it("moves what the layout shares with pages outside it (and its imports) into `framework`, so sign-in skips the shell", () => {
    const chunks = chunksOf(app);
    expect(chunks["/w/app/components/notice.tsx"]).toBe("framework");
    expect(chunks["/w/app/components/tones.ts"]).toBe("framework");
  });

  it("leaves route modules, stylesheets and code only some routes import to Rollup", () => {
    const chunks = chunksOf(app);
    for (const id of [
      ROOT,
      LAYOUT,
      SIGNIN,
      LESSON,
      LAYOUT + CLIENT_ROUTE,
      "/w/app/tailwind.css?url",
      "/w/app/components/forms.tsx",
      "/w/node_modules/zod/index.js",
    ]) {
      expect(chunks[id], id).toBeNull();
    }
  });
});
