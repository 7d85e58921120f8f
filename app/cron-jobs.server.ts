// The scheduled jobs: one row per cron trigger of wrangler.toml (`[triggers] crons`), which server.ts's `scheduled`
// runs. A new job is one row here plus its schedule in wrangler.toml (cron-jobs.test.ts keeps the two the same).
import { abandonedChatMessages } from "~/features/chat";
import { abandonedLiveMinutes } from "~/features/live";
import { abandonedAttempts } from "~/features/pronunciation";
import { sendDailyReminders } from "~/features/reminders";
import { monthlyAllowance, refundAbandonedSpends, renewAllCredits } from "~/server/credits.server";
import type { Database } from "~/server/db.server";
import type { Env } from "~/server/env";
import { pruneOldRows } from "~/server/housekeeping.server";

/** Every feature's spends that a dying request can leave half done; the 5-minute sweep gives them back. */
export const ABANDONED_SPENDS = [abandonedChatMessages, abandonedAttempts, abandonedLiveMinutes];

export type CronJob = {
  name: string;
  /** `scheduledAt` is the time the run was scheduled for (not when it started). */
  run: (db: Database, env: Env, scheduledAt: Date) => Promise<unknown>;
};

export const CRON_JOBS: Record<string, CronJob> = {
  // 00:00 on day 1 in São Paulo.
  "0 3 1 * *": {
    name: "monthly credit renewal",
    run: (db, env) => renewAllCredits(db, monthlyAllowance(env), new Date()),
  },
  "*/5 * * * *": {
    name: "sweep of abandoned spends",
    run: async (db) => {
      const refunded = await refundAbandonedSpends(db, new Date(), ABANDONED_SPENDS);
      if (Object.values(refunded).some(Boolean)) console.warn("[sweep] abandoned spends refunded", refunded);
    },
  },
  "0 * * * *": {
    name: "daily reminders and housekeeping",
    // The hour it was scheduled for decides who is due (the São Paulo hour, the 22:00 limit).
    run: async (db, env, scheduledAt) => {
      const result = await sendDailyReminders(db, env, scheduledAt);
      if (result.failed) console.warn("[reminders] some reminders could not be sent", result);
      const pruned = await pruneOldRows(db, new Date());
      if (Object.values(pruned).some(Boolean)) console.log("[housekeeping] pruned", pruned);
    },
  },
};
