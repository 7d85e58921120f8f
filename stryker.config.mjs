// Mutation testing (issue 8, item 11): does a broken rule in a server module make a test fail?
// `npm run test:mutation` (not part of `npm test`; it takes a while). While working on one module:
//   npx stryker run --mutate app/server/credits.server.ts
// Reports: reports/mutation/mutation.html (open in a browser) and mutation.json.
/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: "vitest",
  vitest: { configFile: "vitest.mutation.config.ts", related: true },
  checkers: ["typescript"],
  tsconfigFile: "tsconfig.json",
  typescriptChecker: { prioritizePerformanceOverAccuracy: true },
  mutate: ["app/server/**/*.server.ts", "app/features/**/*.server.ts", "!**/*.test.ts"],
  // Each mutant runs only the tests that executed its code in the dry run.
  coverageAnalysis: "perTest",
  // A mutant of a module-level constant (a limit, a TTL, a message) is "static": no test can be linked
  // to it, so it would re-run every related test (~55 % of the run time here). They are reported as
  // Ignored; the constants that are rules are pinned by direct tests instead (rate-limit.test.ts
  // "uses the documented limits", auth-rules.test.ts token lifetimes). `--ignoreStatic false` to run them.
  ignoreStatic: true,
  concurrency: 2,
  // PGlite integration tests are slow to start (and slower on a busy machine): room before calling a mutant a timeout.
  timeoutMS: 60_000,
  timeoutFactor: 2,
  // The initial run executes every related test in one vitest worker: minutes, not seconds.
  dryRunTimeoutMinutes: 30,
  reporters: ["clear-text", "progress", "html", "json"],
  htmlReporter: { fileName: "reports/mutation/mutation.html" },
  jsonReporter: { fileName: "reports/mutation/mutation.json" },
  clearTextReporter: { allowColor: false, logTests: false, maxTestsToLog: 0 },
  tempDirName: ".stryker-tmp",
  ignorePatterns: [
    "/build",
    "/.wrangler",
    "/.data",
    "/.cache",
    "/test-results",
    "/playwright-report",
    "/reports",
    "/bench/results",
    "/tests/e2e",
  ],
  thresholds: { high: 90, low: 75, break: null },
};
