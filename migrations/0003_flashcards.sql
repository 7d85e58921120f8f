CREATE TABLE "flashcard_cards" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"content_id" text,
	"category_slug" text NOT NULL,
	"word" text NOT NULL,
	"translation" text NOT NULL,
	"distractor_group" text NOT NULL,
	"image_asset" text,
	"image_key" text,
	"audio_asset" text,
	"audio_key" text,
	"order_index" integer DEFAULT 0 NOT NULL,
	"hidden" boolean DEFAULT false NOT NULL,
	"deleted_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "flashcard_cards_content_id_unique" UNIQUE("content_id"),
	CONSTRAINT "flashcard_cards_has_image" CHECK ("flashcard_cards"."image_asset" is not null or "flashcard_cards"."image_key" is not null)
);
--> statement-breakpoint
CREATE TABLE "flashcard_categories" (
	"slug" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"tile_asset" text NOT NULL,
	"order_index" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "flashcard_games" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"category_slug" text,
	"kind" text NOT NULL,
	"question_count" smallint NOT NULL,
	"answered_count" smallint DEFAULT 0 NOT NULL,
	"correct_count" smallint DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	CONSTRAINT "flashcard_games_kind_check" CHECK ("flashcard_games"."kind" in ('category', 'review')),
	CONSTRAINT "flashcard_games_counts" CHECK ("flashcard_games"."correct_count" <= "flashcard_games"."answered_count" and "flashcard_games"."answered_count" <= "flashcard_games"."question_count")
);
--> statement-breakpoint
CREATE TABLE "flashcard_memory" (
	"user_id" uuid NOT NULL,
	"card_id" uuid NOT NULL,
	"due" timestamp with time zone NOT NULL,
	"stability" real NOT NULL,
	"difficulty" real NOT NULL,
	"elapsed_days" integer NOT NULL,
	"scheduled_days" integer NOT NULL,
	"reps" integer NOT NULL,
	"lapses" integer NOT NULL,
	"state" smallint NOT NULL,
	"last_review" timestamp with time zone,
	"last_missed" boolean DEFAULT false NOT NULL,
	CONSTRAINT "flashcard_memory_user_id_card_id_pk" PRIMARY KEY("user_id","card_id")
);
--> statement-breakpoint
CREATE TABLE "flashcard_questions" (
	"game_id" uuid NOT NULL,
	"position" smallint NOT NULL,
	"card_id" uuid NOT NULL,
	"option_ids" uuid[] NOT NULL,
	"chosen_id" uuid,
	"correct" boolean,
	"answered_at" timestamp with time zone,
	CONSTRAINT "flashcard_questions_game_id_position_pk" PRIMARY KEY("game_id","position")
);
--> statement-breakpoint
ALTER TABLE "flashcard_cards" ADD CONSTRAINT "flashcard_cards_category_slug_flashcard_categories_slug_fk" FOREIGN KEY ("category_slug") REFERENCES "public"."flashcard_categories"("slug") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "flashcard_games" ADD CONSTRAINT "flashcard_games_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "flashcard_games" ADD CONSTRAINT "flashcard_games_category_slug_flashcard_categories_slug_fk" FOREIGN KEY ("category_slug") REFERENCES "public"."flashcard_categories"("slug") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "flashcard_memory" ADD CONSTRAINT "flashcard_memory_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "flashcard_memory" ADD CONSTRAINT "flashcard_memory_card_id_flashcard_cards_id_fk" FOREIGN KEY ("card_id") REFERENCES "public"."flashcard_cards"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "flashcard_questions" ADD CONSTRAINT "flashcard_questions_game_id_flashcard_games_id_fk" FOREIGN KEY ("game_id") REFERENCES "public"."flashcard_games"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "flashcard_questions" ADD CONSTRAINT "flashcard_questions_card_id_flashcard_cards_id_fk" FOREIGN KEY ("card_id") REFERENCES "public"."flashcard_cards"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "flashcard_cards_category_idx" ON "flashcard_cards" USING btree ("category_slug","order_index");--> statement-breakpoint
CREATE INDEX "flashcard_games_user_idx" ON "flashcard_games" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "flashcard_memory_due_idx" ON "flashcard_memory" USING btree ("user_id","due");