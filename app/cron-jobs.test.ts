import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { CRON_JOBS } from "./cron-jobs.server";

describe("the cron job table", () => {
  it("has one job per cron trigger of wrangler.toml, and no job without its trigger", () => {
    const toml = readFileSync("wrangler.toml", "utf8");
    const crons = /^crons\s*=\s*\[([^\]]*)\]/m.exec(toml)?.[1];
    expect(crons, "wrangler.toml declares [triggers] crons").toBeDefined();
    const schedules = [...crons!.matchAll(/"([^"]+)"/g)].map((match) => match[1]);
    expect(schedules.length).toBeGreaterThan(0);
    expect(Object.keys(CRON_JOBS).sort()).toEqual([...schedules].sort());
  });
});
