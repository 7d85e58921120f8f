// The pronunciation game's tables: its 100 levels and a learner's attempts at them.
import { sql } from "drizzle-orm";
import { check, index, jsonb, pgTable, real, smallint, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { timestamps, users } from "~/server/schema";

/** The 100 levels (seeded by migration from content/pronunciation/levels.json; an admin may edit them). */
export const pronunciationLevels = pgTable(
  "pronunciation_levels",
  {
    level: smallint("level").primaryKey(),
    /** 1–10: the sound the level trains (content/pronunciation/levels.json `bands`). */
    band: smallint("band").notNull(),
    sentence: text("sentence").notNull(),
    /** pt-BR translation. */
    translation: text("translation").notNull(),
    /** Shipped reference audio (content manifest key); an admin's upload (R2 key) wins over it. */
    audioAsset: text("audio_asset"),
    audioKey: text("audio_key"),
    ...timestamps,
  },
  (t) => [
    check("pronunciation_levels_range", sql`${t.level} between 1 and 100 and ${t.band} between 1 and 10`),
    check("pronunciation_levels_has_audio", sql`${t.audioAsset} is not null or ${t.audioKey} is not null`),
  ],
);

/**
 * One attempt: created together with its credit (status `scoring`), then `scored` with the scorer's
 * result, or `failed` (credit refunded). Best scores are derived from the scored ones.
 */
export const pronunciationAttempts = pgTable(
  "pronunciation_attempts",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    level: smallint("level")
      .notNull()
      .references(() => pronunciationLevels.level, { onDelete: "cascade" }),
    status: text("status", { enum: ["scoring", "scored", "failed"] })
      .notNull()
      .default("scoring"),
    /** The sentence as it was when the attempt was made (an admin may edit the level later). */
    sentence: text("sentence").notNull(),
    overallScore: real("overall_score"),
    accuracyScore: real("accuracy_score"),
    fluencyScore: real("fluency_score"),
    completenessScore: real("completeness_score"),
    pronunciationScore: real("pronunciation_score"),
    prosodyScore: real("prosody_score"),
    /** [{ word, accuracyScore, errorType }] in sentence order (insertions where they were heard). */
    words: jsonb("words").$type<{ word: string; accuracyScore: number; errorType: "None" | "Mispronunciation" | "Omission" | "Insertion" }[]>(),
    recognizedText: text("recognized_text"),
    /** The learner's recording in R2 (for replay next to the reference). */
    audioKey: text("audio_key"),
    scorer: text("scorer").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("pronunciation_attempts_best_idx").on(t.userId, t.level, t.overallScore),
    check("pronunciation_attempts_status_check", sql`${t.status} in ('scoring', 'scored', 'failed')`),
    check("pronunciation_attempts_scored", sql`${t.status} <> 'scored' or ${t.overallScore} is not null`),
  ],
);
