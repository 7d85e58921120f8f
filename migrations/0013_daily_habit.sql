CREATE TABLE "activities" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"ref" text NOT NULL,
	"day" date NOT NULL,
	"points" smallint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "activities_kind_check" CHECK ("activities"."kind" in ('lesson_completed', 'flashcard_game', 'review_game', 'pronunciation_attempt', 'chat_exchange', 'level_test', 'live_minute')),
	CONSTRAINT "activities_points_check" CHECK ("activities"."points" >= 0)
);
--> statement-breakpoint
CREATE TABLE "streak_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"day" date NOT NULL,
	"kind" text NOT NULL,
	"streak_after" integer NOT NULL,
	"freezes_after" smallint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "streak_events_kind_check" CHECK ("streak_events"."kind" in ('extended', 'frozen', 'broken', 'freeze_earned'))
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "daily_goal" smallint DEFAULT 20 NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "daily_goal_chosen_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "current_streak" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "longest_streak" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "streak_freezes" smallint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "last_active_day" date;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "reminder_opt_in" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "reminder_sent_day" date;--> statement-breakpoint
ALTER TABLE "activities" ADD CONSTRAINT "activities_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "streak_events" ADD CONSTRAINT "streak_events_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "activities_user_kind_ref_unique" ON "activities" USING btree ("user_id","kind","ref");--> statement-breakpoint
CREATE INDEX "activities_user_day_idx" ON "activities" USING btree ("user_id","day");--> statement-breakpoint
CREATE UNIQUE INDEX "streak_events_user_day_kind_unique" ON "streak_events" USING btree ("user_id","day","kind");--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_daily_goal_check" CHECK ("users"."daily_goal" in (10, 20, 30, 50));--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_streak_freezes_range" CHECK ("users"."streak_freezes" between 0 and 2);