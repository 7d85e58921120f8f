import { vitePlugin as remix, cloudflareDevProxyVitePlugin } from "@remix-run/dev";
import tailwindcss from "@tailwindcss/vite";
import { flatRoutes } from "remix-flat-routes";
import { defineConfig } from "vite";
import tsconfigPaths from "vite-tsconfig-paths";
import { getLoadContext } from "./load-context";
import { shellChunks } from "./scripts/vite-chunks";
import { buildServiceWorker } from "./scripts/vite-sw";

declare module "@remix-run/cloudflare" {
  interface Future {
    v3_singleFetch: true;
  }
}

export default defineConfig(({ command, isSsrBuild }) => ({
  plugins: [
    // Only `vite:dev` needs wrangler's platform proxy; builds skip it (and its binding warnings).
    command === "serve" && cloudflareDevProxyVitePlugin({ getLoadContext }),
    remix({
      future: {
        v3_fetcherPersist: true,
        v3_relativeSplatPath: true,
        v3_throwAbortReason: true,
        v3_singleFetch: true,
        v3_lazyRouteDiscovery: true,
      },
      // Route modules grouped by area in `+` folders (remix-flat-routes hybrid routes): see decision 0010.
      ignoredRouteFiles: ["**/*"],
      routes: async (defineRoutes) => flatRoutes("routes", defineRoutes, { ignoredRouteFiles: ["**/.*", "**/*.test.{ts,tsx}"] }),
      // The service worker (build/client/sw.js) is built last: its precache lists the client build's files.
      buildEnd: buildServiceWorker,
    }),
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
