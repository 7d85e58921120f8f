import { reactRouter } from "@react-router/dev/vite";
import { cloudflareDevProxy } from "@react-router/dev/vite/cloudflare";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";
import tsconfigPaths from "vite-tsconfig-paths";
import { getLoadContext } from "./load-context";
import { shellChunks } from "./scripts/vite-chunks";

export default defineConfig(({ command, isSsrBuild }) => ({
  plugins: [
    // Only `vite:dev` needs wrangler's platform proxy; builds skip it (and its binding warnings).
    command === "serve" && cloudflareDevProxy({ getLoadContext }),
    // Routes: app/routes.ts; build options: react-router.config.ts.
    reactRouter(),
    tailwindcss(),
    tsconfigPaths(),
  ],
  // zod is bundled by Vite (with conform's adapter, so both share one copy): Rollup drops what the app does not use —
  // zod's 40 locales among it — where wrangler's esbuild, given the bare import, kept the whole `z` namespace.
  ssr: { noExternal: ["zod", "@conform-to/zod"], resolve: { conditions: ["workerd", "worker", "browser"] } },
  // The browser's chunks are grouped (scripts/vite-chunks.ts); the worker's bundle is one script whatever its chunks.
  // `cloudflare:*` modules (the Durable Objects' base class) are the runtime's own: left for workerd to provide.
  build: { sourcemap: false, rollupOptions: isSsrBuild ? { external: [/^cloudflare:/] } : { output: { manualChunks: shellChunks() } } },
}));
