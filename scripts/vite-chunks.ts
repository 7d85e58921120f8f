import type { GetManualChunk, ManualChunkMeta } from "rollup";

// Client chunking (decision 0019). Left to itself Rollup splits the code every page needs into many
// small shared chunks, so a page started a script request for each; on a slow mobile link each costs a round trip, and
// Lighthouse's simulator counts them all before the first paint. Here the modules every page loads statically
// go into two chunks instead:
//   "framework": everything the client entry and the root route import statically (React, React Router, the root's UI),
//   and the few UI pieces both the signed-in layout and the pages outside it import (the notice box);
//   "app-shell": what the signed-in layout adds on top (sidebar, shell parts, their helpers) and no page outside it
//   imports.
// Route modules keep their own chunks, and anything only some routes import (forms, dialogs, the recorder…) keeps
// Rollup's own splitting, so no page downloads code it did not load before.

const CLIENT_ENTRY = "/node_modules/@react-router/dev/dist/config/defaults/entry.client.tsx";
const ROOT_ROUTE = "/app/root.tsx";
const APP_ROUTES = "/app/routes/_app+/";
const APP_LAYOUT = `${APP_ROUTES}_layout.tsx`;

const pathOf = (id: string) => id.split("?")[0]!;
const isRouteModule = (path: string) => path.endsWith(ROOT_ROUTE) || path.includes("/app/routes/");

/** Every module `roots` import statically, directly or through other modules. */
function staticallyImported(rootIds: string[], meta: ManualChunkMeta) {
  const found = new Set<string>();
  const pending = [...rootIds];
  for (let id = pending.pop(); id !== undefined; id = pending.pop()) {
    for (const imported of meta.getModuleInfo(id)?.importedIds ?? []) {
      if (found.has(imported)) continue;
      found.add(imported);
      pending.push(imported);
    }
  }
  return found;
}

export function shellChunks(): GetManualChunk {
  let groups: { framework: Set<string>; appShell: Set<string> } | undefined;
  return (id, meta) => {
    if (!groups) {
      const ids = [...meta.getModuleIds()];
      const withPath = (...paths: string[]) => ids.filter((each) => paths.some((path) => pathOf(each).endsWith(path)));
      const framework = staticallyImported(withPath(CLIENT_ENTRY, ROOT_ROUTE), meta);
      const appShell = staticallyImported(withPath(APP_LAYOUT), meta);
      // What pages outside the signed-in layout (sign-in, public pages) import too goes with the framework: otherwise
      // Rollup would pull it into the shell chunk, and the sign-in page would download the whole shell for it.
      const outsideApp = staticallyImported(
        ids.filter((each) => isRouteModule(pathOf(each)) && !pathOf(each).includes(APP_ROUTES)),
        meta,
      );
      for (const id of appShell) {
        if (!framework.has(id) && !outsideApp.has(id)) continue;
        framework.add(id);
        appShell.delete(id);
      }
      groups = { framework, appShell };
    }
    const path = pathOf(id);
    if (isRouteModule(path) || path.endsWith(".css")) return undefined;
    if (groups.framework.has(id)) return "framework";
    if (groups.appShell.has(id)) return "app-shell";
    return undefined;
  };
}
