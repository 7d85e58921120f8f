CREATE TABLE "notebook_sightings" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"entry_id" uuid NOT NULL,
	"conversation_id" uuid NOT NULL,
	"message_id" uuid,
	"kind" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "notebook_sightings_kind_check" CHECK ("notebook_sightings"."kind" in ('made', 'used_right'))
);
--> statement-breakpoint
ALTER TABLE "flashcard_questions" ALTER COLUMN "card_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "chat_conversations" ADD COLUMN "focus" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "flashcard_memory" ADD COLUMN "miss_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "flashcard_questions" ADD COLUMN "entry_id" uuid;--> statement-breakpoint
ALTER TABLE "flashcard_questions" ADD COLUMN "option_texts" text[];--> statement-breakpoint
ALTER TABLE "flashcard_questions" ADD COLUMN "chosen_index" smallint;--> statement-breakpoint
ALTER TABLE "offline_bundles" ADD COLUMN "entries" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "notebook_sightings" ADD CONSTRAINT "notebook_sightings_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notebook_sightings" ADD CONSTRAINT "notebook_sightings_entry_id_notebook_entries_id_fk" FOREIGN KEY ("entry_id") REFERENCES "public"."notebook_entries"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notebook_sightings" ADD CONSTRAINT "notebook_sightings_conversation_id_chat_conversations_id_fk" FOREIGN KEY ("conversation_id") REFERENCES "public"."chat_conversations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notebook_sightings" ADD CONSTRAINT "notebook_sightings_message_id_chat_messages_id_fk" FOREIGN KEY ("message_id") REFERENCES "public"."chat_messages"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "notebook_sightings_conversation_idx" ON "notebook_sightings" USING btree ("conversation_id","created_at");--> statement-breakpoint
CREATE INDEX "notebook_sightings_entry_idx" ON "notebook_sightings" USING btree ("entry_id");--> statement-breakpoint
ALTER TABLE "flashcard_questions" ADD CONSTRAINT "flashcard_questions_entry_id_notebook_entries_id_fk" FOREIGN KEY ("entry_id") REFERENCES "public"."notebook_entries"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "flashcard_questions" ADD CONSTRAINT "flashcard_questions_card_or_entry" CHECK (("flashcard_questions"."card_id" is null) <> ("flashcard_questions"."entry_id" is null));