import type { Config } from "@react-router/dev/config";
import { buildServiceWorker } from "./scripts/vite-sw";

export default {
  // Every page is rendered by the worker (server.ts); loaders and actions run there.
  ssr: true,
  // The service worker (build/client/sw.js) is built last: its precache lists the client build's files.
  buildEnd: buildServiceWorker,
} satisfies Config;
