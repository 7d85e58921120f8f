// Teacher FLIX's tables: modules and their lessons, the page banners, a learner's progress, lesson comments and
// who is on a lesson's live channel. Other features reach modules and lessons through ~/features/courses.
import { sql } from "drizzle-orm";
import {
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
  uuid,
  type AnyPgColumn,
} from "drizzle-orm/pg-core";
import { timestamps, users } from "~/server/schema";

export type DownloadableMaterial = {
  title: string;
  type: string;
  size: string;
  url: string;
  uploadedAt: string;
};

export const modules = pgTable(
  "modules",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    title: text("title").notNull(),
    description: text("description"),
    orderIndex: integer("order_index").notNull().default(0),
    imageUrl: text("image_url"),
    bannerUrl: text("banner_url"),
    bannerTitle: text("banner_title"),
    bannerSubtitle: text("banner_subtitle"),
    available: text("available", { enum: ["yes", "no"] })
      .notNull()
      .default("yes"),
    ...timestamps,
  },
  (t) => [index("modules_order_idx").on(t.orderIndex)],
);

export const lessons = pgTable(
  "lessons",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    moduleId: uuid("module_id")
      .notNull()
      .references(() => modules.id, { onDelete: "cascade" }),
    title: text("title").notNull(),
    description: text("description"),
    videoUrl: text("video_url"),
    iframe: text("iframe"),
    thumbnailUrl: text("thumbnail_url"),
    durationSeconds: integer("duration_seconds").notNull().default(0),
    orderIndex: integer("order_index").notNull().default(0),
    downloadableMaterials: jsonb("downloadable_materials")
      .$type<DownloadableMaterial[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    ...timestamps,
  },
  (t) => [index("lessons_module_order_idx").on(t.moduleId, t.orderIndex)],
);

export const siteBanners = pgTable("site_banners", {
  id: serial("id").primaryKey(),
  section: text("section").notNull(),
  title: text("title"),
  subtitle: text("subtitle"),
  backgroundImageUrl: text("background_image_url"),
  backgroundGradient: text("background_gradient"),
  isActive: boolean("is_active").notNull().default(false),
  ...timestamps,
});

export const userLessonProgress = pgTable(
  "user_lesson_progress",
  {
    id: serial("id").primaryKey(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    lessonId: uuid("lesson_id")
      .notNull()
      .references(() => lessons.id, { onDelete: "cascade" }),
    completed: boolean("completed").notNull().default(false),
    completedAt: timestamp("completed_at", { withTimezone: true }),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("user_lesson_progress_unique").on(t.userId, t.lessonId)],
);

export const lessonComments = pgTable(
  "lesson_comments",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    lessonId: uuid("lesson_id")
      .notNull()
      .references(() => lessons.id, { onDelete: "cascade" }),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    content: text("content").notNull(),
    parentId: uuid("parent_id").references((): AnyPgColumn => lessonComments.id, { onDelete: "cascade" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("lesson_comments_lesson_created_idx").on(t.lessonId, t.createdAt)],
);

// ——— who is on a lesson's live channel ———

/**
 * Which lessons' live channels a user has opened (written when the WebSocket is handed over), so
 * blocking the user asks only those channels to close their sockets. A row may outlive its socket.
 */
export const liveConnections = pgTable(
  "live_connections",
  {
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    lessonId: uuid("lesson_id")
      .notNull()
      .references(() => lessons.id, { onDelete: "cascade" }),
    connectedAt: timestamp("connected_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.lessonId] })],
);
