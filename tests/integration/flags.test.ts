import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it, vi } from "vitest";
import type { Database } from "~/server/db.server";
import { FLAGS_STALE_MS, flagsFromRows, forgetFlags, getFlags, isFeatureDisabled, requireFeature } from "~/server/flags.server";
import { appConfig } from "~/server/schema";
import { call, contextFor, createTestDb } from "./harness";

let db: Database;
let queryCount: () => number;
beforeAll(async () => {
  ({ db, queryCount } = await createTestDb());
});

describe("feature flags", () => {
  it("are seeded by the migrations with every key of the spec and a description", async () => {
    const rows = await db.select().from(appConfig);
    expect(rows.map((r) => r.configKey).sort()).toEqual([
      "app_name",
      "email_confirmation_required",
      "enable_account_creation_on_signin",
      "feature_chat_english",
      "feature_chat_english_test",
      "feature_chat_game",
      "feature_chat_live",
      "feature_chat_portuguese",
      "feature_chat_roleplay",
      "feature_flashcards",
      "feature_pronunciation",
      "feature_teacher_flix",
      "signup_enabled",
    ]);
    expect(rows.every((r) => r.description.length > 0)).toBe(true);
    const flags = await getFlags(contextFor(db));
    expect(flags.feature_teacher_flix).toBe(true);
    expect(flags.email_confirmation_required).toBe(false);
    expect(flags.app_name).toBe("Nika");
  });

  it("default to enabled unless explicitly false; email confirmation only when true", () => {
    const flags = flagsFromRows([{ configKey: "feature_flashcards", configValue: false, textValue: null }]);
    expect(flags.feature_flashcards).toBe(false);
    expect(flags.feature_pronunciation).toBe(true);
    expect(flags.email_confirmation_required).toBe(false);
    expect(flagsFromRows([{ configKey: "email_confirmation_required", configValue: true, textValue: null }]).email_confirmation_required).toBe(
      true,
    );
  });

  it("are read once per request", async () => {
    const context = contextFor(db);
    const before = queryCount();
    await Promise.all([getFlags(context), getFlags(context), requireFeature(context, "feature_chat_game")]);
    expect(queryCount() - before).toBe(1);
  });

  it("are kept per isolate for FLAGS_STALE_MS, and forgotten at once where an admin toggled one", async () => {
    // Requests of one isolate share its env object (contextFor makes a new one per call, so other tests never share).
    const isolate = contextFor(db).cloudflare.env;
    const request = () => {
      const context = contextFor(db);
      context.cloudflare.env = isolate;
      return context;
    };
    const clock = vi.spyOn(Date, "now");
    const start = Date.now();
    try {
      clock.mockReturnValue(start);
      const before = queryCount();
      expect((await getFlags(request())).feature_flashcards).toBe(true);
      await db.update(appConfig).set({ configValue: false }).where(eq(appConfig.configKey, "feature_flashcards"));
      const afterUpdate = queryCount();
      // Another request within the bound: no query, the flag as it was read.
      clock.mockReturnValue(start + FLAGS_STALE_MS - 1);
      expect((await getFlags(request())).feature_flashcards).toBe(true);
      expect(queryCount()).toBe(afterUpdate);
      // Past the bound: read again.
      clock.mockReturnValue(start + FLAGS_STALE_MS);
      expect((await getFlags(request())).feature_flashcards).toBe(false);
      expect(queryCount() - before).toBe(3); // two reads and the update

      // Where the admin toggled: forgotten at once, for this request and the next.
      await db.update(appConfig).set({ configValue: true }).where(eq(appConfig.configKey, "feature_flashcards"));
      const toggling = request();
      expect((await getFlags(toggling)).feature_flashcards).toBe(false);
      forgetFlags(toggling);
      expect((await getFlags(toggling)).feature_flashcards).toBe(true);
      expect((await getFlags(request())).feature_flashcards).toBe(true);
    } finally {
      clock.mockRestore();
      await db.update(appConfig).set({ configValue: true }).where(eq(appConfig.configKey, "feature_flashcards"));
    }
  });

  it("gate a loader or action with a 403 the error boundary renders as feature-disabled", async () => {
    await db.update(appConfig).set({ configValue: false }).where(eq(appConfig.configKey, "feature_flashcards"));
    try {
      const outcome = await call(() => requireFeature(contextFor(db), "feature_flashcards"));
      expect(outcome.status).toBe(403);
      expect(isFeatureDisabled(outcome.data)).toBe(true);
      await expect(requireFeature(contextFor(db), "feature_pronunciation")).resolves.toBeUndefined();
    } finally {
      await db.update(appConfig).set({ configValue: true }).where(eq(appConfig.configKey, "feature_flashcards"));
    }
  });
});
