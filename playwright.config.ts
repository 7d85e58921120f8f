import { defineConfig, devices } from "@playwright/test";
import { budget } from "./tests/e2e/budget";

// End-to-end tests drive Debian's Chromium against `wrangler dev` serving the production build with
// the embedded database (fresh for each run) and the fake upstream services. Every journey runs twice:
// with JavaScript enabled and disabled.
const PORT = 8797;
const chromium = {
  ...devices["Desktop Chrome"],
  launchOptions: {
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
      "--disable-quic",
    ],
  },
  locale: "pt-BR",
  timezoneId: "America/Sao_Paulo",
};

export default defineConfig({
  testDir: "tests/e2e",
  fullyParallel: true,
  workers: 2,
  retries: process.env.CI ? 1 : 0,
  // Budgets scale with the machine (tests/e2e/budget.ts): a slow or one-core CI machine gets more time.
  timeout: budget(45_000),
  expect: { timeout: budget(8_000) },
  reporter: process.env.CI ? [["list"]] : [["list"]],
  // A trace's screencast and snapshots cost about a fifth of the suite's time on two cores: under CI (which retries
  // once) only a retry records one, so a failure still comes with its trace.
  use: { baseURL: `http://localhost:${PORT}`, trace: process.env.CI ? "on-first-retry" : "retain-on-failure" },
  projects: [
    // The route contract (tests/contract) runs first and alone: it compares row counts of every table.
    { name: "contract", testDir: "tests/contract", use: { ...chromium } },
    // Then the tests that switch a shared feature flag, alone (tests/serial).
    { name: "flags", testDir: "tests/serial", use: { ...chromium }, dependencies: ["contract"] },
    { name: "js", use: { ...chromium, javaScriptEnabled: true }, dependencies: ["flags"] },
    // Without JavaScript: every spec but those with no page or form to run without it (recording from the microphone; the cron).
    {
      name: "no-js",
      use: { ...chromium, javaScriptEnabled: false },
      testIgnore: ["**/chat-voice.spec.ts", "**/pronunciation-voice.spec.ts", "**/credits.spec.ts"],
      dependencies: ["flags"],
    },
  ],
  webServer: [
    {
      // The fake provider paces its tokens slower on a slower machine, so a browser starved of CPU still sees the reply arrive in pieces.
      command: `node tests/fake-upstream/server.mjs --port 4010 --token-delay ${budget(40)}`,
      url: "http://127.0.0.1:4010/__health",
      reuseExistingServer: false,
      stdout: "ignore",
    },
    {
      command: `node scripts/start.mjs --env-file tests/e2e/e2e.vars --port ${PORT} --data .data/e2e --fresh --no-build --quiet-wrangler --test-scheduled`,
      url: `http://127.0.0.1:${PORT}/signin`,
      timeout: budget(180_000),
      reuseExistingServer: false,
      stdout: "pipe",
    },
  ],
});
