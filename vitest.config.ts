import { availableParallelism } from "node:os";
import tsconfigPaths from "vite-tsconfig-paths";
import { defineConfig } from "vitest/config";

export default defineConfig({
  plugins: [tsconfigPaths()],
  // workerd's own module, for the Durable Object classes the server build carries (see the file).
  resolve: { alias: { "cloudflare:workers": new URL("tests/integration/cloudflare-workers.ts", import.meta.url).pathname } },
  test: {
    include: ["app/**/*.test.{ts,tsx}", "tests/integration/**/*.test.ts", "scripts/**/*.test.ts"],
    environment: "node",
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
    // Vitest leaves a core to its main process by default; here that would run the files one at a time.
    maxWorkers: availableParallelism(),
    globalSetup: ["tests/integration/db-template.ts"],
  },
});
