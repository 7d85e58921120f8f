// Time budgets that scale with the machine. The journeys' timeouts were set on a quiet two-core machine;
// CI runs on whatever machine comes next — slower, busier, or pinned to one core (`taskset -c 0`). A
// timeout is only an upper bound (a passing test never waits for it), so every budget is multiplied by
// how much slower this machine is: measured once per run (a fixed PBKDF2 workload, median of five) and
// handed to Playwright's workers through the environment. NIKA_TEST_SLOWDOWN=3 sets it by hand.
import { pbkdf2Sync } from "node:crypto";
import { availableParallelism } from "node:os";

/** The workload's median on the machine the budgets were set on (2 cores, Node 20), in ms. */
const REFERENCE_MS = 25;
const MAX_SLOWDOWN = 8;

function measure(): number {
  const runs = Array.from({ length: 5 }, () => {
    const started = performance.now();
    pbkdf2Sync("nika", "budget", 50_000, 32, "sha256");
    return performance.now() - started;
  }).sort((a, b) => a - b);
  const cpu = Math.max(1, runs[2]! / REFERENCE_MS);
  // Browser, workerd, the database and the runner share the cores: one core carries twice the load.
  const cores = Math.max(1, 2 / availableParallelism());
  return Math.min(MAX_SLOWDOWN, Math.round(cpu * cores * 10) / 10);
}

/** How many times slower than the reference machine this one is (≥ 1); the same in every worker. */
export function machineSlowdown(): number {
  const preset = Number(process.env.NIKA_TEST_SLOWDOWN);
  if (Number.isFinite(preset) && preset >= 1) return preset;
  const slowdown = measure();
  process.env.NIKA_TEST_SLOWDOWN = String(slowdown);
  console.log(`[e2e] time budgets × ${slowdown} on this machine`);
  return slowdown;
}

/** A time budget in ms (a timeout, never a wait), scaled to this machine. */
export const budget = (ms: number) => Math.round(ms * machineSlowdown());
