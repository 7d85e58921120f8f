CREATE TABLE "offline_bundles" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"category_slug" text,
	"cards" jsonb NOT NULL,
	"issued_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "offline_bundles_kind_check" CHECK ("offline_bundles"."kind" in ('category', 'review'))
);
--> statement-breakpoint
ALTER TABLE "flashcard_games" ADD COLUMN "offline_bundle_id" uuid;--> statement-breakpoint
ALTER TABLE "flashcard_questions" ADD COLUMN "answer_key" uuid;--> statement-breakpoint
ALTER TABLE "offline_bundles" ADD CONSTRAINT "offline_bundles_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "offline_bundles" ADD CONSTRAINT "offline_bundles_category_slug_flashcard_categories_slug_fk" FOREIGN KEY ("category_slug") REFERENCES "public"."flashcard_categories"("slug") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "offline_bundles_user_idx" ON "offline_bundles" USING btree ("user_id","issued_at");--> statement-breakpoint
ALTER TABLE "flashcard_games" ADD CONSTRAINT "flashcard_games_offline_bundle_id_offline_bundles_id_fk" FOREIGN KEY ("offline_bundle_id") REFERENCES "public"."offline_bundles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "flashcard_questions" ADD CONSTRAINT "flashcard_questions_answer_key_unique" UNIQUE("answer_key");