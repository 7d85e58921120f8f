// Running app modules in workerd itself (Miniflare, the runtime `wrangler dev` uses): a test worker's source is
// bundled from the app's sources the way wrangler bundles the app, then served by Miniflare with the app's
// compatibility date and flags. Used by realtime.test.ts (the lesson channel) and database-socket.test.ts (the
// database driver on workerd's sockets).
import { builtinModules } from "node:module";
import { build, type Plugin } from "esbuild";
import { Miniflare, type MiniflareOptions } from "miniflare";

/** Node's built-ins workerd (as Miniflare runs it) lacks; node-postgres reads files and resolves names only for options the app does not use. */
const MISSING_IN_WORKERD = new Set(["fs", "dns"]);

/**
 * node-postgres is CommonJS and `require`s Node's built-ins by bare name, which an ES module bundle cannot do at run
 * time; wrangler wraps them as ES imports of `node:*` (served by nodejs_compat), with empty stand-ins where workerd
 * has none, and so does this plugin.
 */
const builtinsAsImports: Plugin = {
  name: "builtins-as-imports",
  setup(build) {
    const bare = new RegExp(`^(${builtinModules.filter((name) => !name.startsWith("_")).join("|")})$`);
    build.onResolve({ filter: bare }, ({ path, kind }) => (kind === "require-call" ? { path, namespace: "builtin" } : { path, external: true }));
    build.onLoad({ filter: /.*/, namespace: "builtin" }, ({ path }) => ({
      contents: MISSING_IN_WORKERD.has(path)
        ? "module.exports = {};"
        : `import * as m from "node:${path}"; module.exports = { ...m, ...(m.default ?? {}) };`,
    }));
  },
};

/** A Miniflare instance (ready) serving `source`, an ES module worker that may import the app by relative path. */
export async function startTestWorker(source: string, options: Omit<MiniflareOptions, "modules" | "script"> = {}) {
  const bundle = await build({
    stdin: { contents: source, resolveDir: process.cwd(), loader: "js" },
    bundle: true,
    write: false,
    format: "esm",
    platform: "browser",
    conditions: ["workerd", "worker", "browser"],
    external: ["cloudflare:*", "node:*"],
    plugins: [builtinsAsImports],
    tsconfig: "tsconfig.json",
    logLevel: "silent",
  });
  const mf = new Miniflare({
    compatibilityDate: "2025-09-01",
    compatibilityFlags: ["nodejs_compat"],
    ...options,
    modules: true,
    script: bundle.outputFiles[0]!.text,
  } as MiniflareOptions);
  await mf.ready;
  return mf;
}
