CREATE TABLE "notebook_entries" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"wrong" text NOT NULL,
	"right" text NOT NULL,
	"right_key" text NOT NULL,
	"explanation" text NOT NULL,
	"alternatives" jsonb NOT NULL,
	"source" text NOT NULL,
	"conversation_id" uuid,
	"message_id" uuid,
	"details" jsonb,
	"count" integer DEFAULT 1 NOT NULL,
	"state" text DEFAULT 'new' NOT NULL,
	"mastered_at" timestamp with time zone,
	"dismissed_at" timestamp with time zone,
	"due" timestamp with time zone DEFAULT now() NOT NULL,
	"stability" real DEFAULT 0 NOT NULL,
	"difficulty" real DEFAULT 0 NOT NULL,
	"elapsed_days" integer DEFAULT 0 NOT NULL,
	"scheduled_days" integer DEFAULT 0 NOT NULL,
	"reps" integer DEFAULT 0 NOT NULL,
	"lapses" integer DEFAULT 0 NOT NULL,
	"fsrs_state" smallint DEFAULT 0 NOT NULL,
	"last_review" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "notebook_entries_count_positive" CHECK ("notebook_entries"."count" > 0),
	CONSTRAINT "notebook_entries_lengths" CHECK (char_length("notebook_entries"."wrong") between 1 and 200
        and char_length("notebook_entries"."right") between 1 and 200
        and char_length("notebook_entries"."explanation") <= 300)
);
--> statement-breakpoint
ALTER TABLE "notebook_entries" ADD CONSTRAINT "notebook_entries_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notebook_entries" ADD CONSTRAINT "notebook_entries_conversation_id_chat_conversations_id_fk" FOREIGN KEY ("conversation_id") REFERENCES "public"."chat_conversations"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notebook_entries" ADD CONSTRAINT "notebook_entries_message_id_chat_messages_id_fk" FOREIGN KEY ("message_id") REFERENCES "public"."chat_messages"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "notebook_entries_mistake_idx" ON "notebook_entries" USING btree ("user_id","kind","right_key");--> statement-breakpoint
CREATE INDEX "notebook_entries_due_idx" ON "notebook_entries" USING btree ("user_id","due") WHERE "notebook_entries"."dismissed_at" is null;