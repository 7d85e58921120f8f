// Vitest settings for mutation runs (stryker.config.mjs): the same tests as vitest.config.ts, run one
// file at a time per Stryker worker next to its type checker. Setup hooks (PGlite with the migrations,
// Miniflare) get more time, so a slow start on a busy machine is not mistaken for a killed mutant.
import { defineConfig, mergeConfig } from "vitest/config";
import base from "./vitest.config";

export default mergeConfig(base, defineConfig({ test: { hookTimeout: 180_000, testTimeout: 120_000 } }));
