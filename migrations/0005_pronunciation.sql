CREATE TABLE "pronunciation_attempts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"level" smallint NOT NULL,
	"status" text DEFAULT 'scoring' NOT NULL,
	"sentence" text NOT NULL,
	"overall_score" real,
	"accuracy_score" real,
	"fluency_score" real,
	"completeness_score" real,
	"pronunciation_score" real,
	"prosody_score" real,
	"words" jsonb,
	"recognized_text" text,
	"audio_key" text,
	"scorer" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "pronunciation_attempts_status_check" CHECK ("pronunciation_attempts"."status" in ('scoring', 'scored', 'failed')),
	CONSTRAINT "pronunciation_attempts_scored" CHECK ("pronunciation_attempts"."status" <> 'scored' or "pronunciation_attempts"."overall_score" is not null)
);
--> statement-breakpoint
CREATE TABLE "pronunciation_levels" (
	"level" smallint PRIMARY KEY NOT NULL,
	"band" smallint NOT NULL,
	"sentence" text NOT NULL,
	"translation" text NOT NULL,
	"audio_asset" text,
	"audio_key" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "pronunciation_levels_range" CHECK ("pronunciation_levels"."level" between 1 and 100 and "pronunciation_levels"."band" between 1 and 10),
	CONSTRAINT "pronunciation_levels_has_audio" CHECK ("pronunciation_levels"."audio_asset" is not null or "pronunciation_levels"."audio_key" is not null)
);
--> statement-breakpoint
ALTER TABLE "pronunciation_attempts" ADD CONSTRAINT "pronunciation_attempts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pronunciation_attempts" ADD CONSTRAINT "pronunciation_attempts_level_pronunciation_levels_level_fk" FOREIGN KEY ("level") REFERENCES "public"."pronunciation_levels"("level") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "pronunciation_attempts_best_idx" ON "pronunciation_attempts" USING btree ("user_id","level","overall_score");