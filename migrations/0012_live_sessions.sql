CREATE TABLE "live_minutes" (
	"session_id" uuid NOT NULL,
	"minute" integer NOT NULL,
	"ref" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"credits" integer NOT NULL,
	"status" text NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "live_minutes_session_id_minute_pk" PRIMARY KEY("session_id","minute"),
	CONSTRAINT "live_minutes_ref_unique" UNIQUE("ref"),
	CONSTRAINT "live_minutes_status_check" CHECK ("live_minutes"."status" in ('pending', 'used', 'refunded'))
);
--> statement-breakpoint
CREATE TABLE "live_sessions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"conversation_id" uuid NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"end_reason" text,
	"credits_per_minute" integer NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"ended_at" timestamp with time zone,
	CONSTRAINT "live_sessions_status_check" CHECK ("live_sessions"."status" in ('active', 'ended'))
);
--> statement-breakpoint
ALTER TABLE "live_minutes" ADD CONSTRAINT "live_minutes_session_id_live_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."live_sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "live_minutes" ADD CONSTRAINT "live_minutes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "live_sessions" ADD CONSTRAINT "live_sessions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "live_sessions" ADD CONSTRAINT "live_sessions_conversation_id_chat_conversations_id_fk" FOREIGN KEY ("conversation_id") REFERENCES "public"."chat_conversations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "live_minutes_pending_idx" ON "live_minutes" USING btree ("started_at") WHERE "live_minutes"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "live_sessions_user_started_idx" ON "live_sessions" USING btree ("user_id","started_at");--> statement-breakpoint
INSERT INTO "app_config" ("config_key", "config_value", "text_value", "description") VALUES
  ('feature_chat_live', true, NULL, 'Chat with Nika: Conversa ao vivo (voz em tempo real)')
ON CONFLICT ("config_key") DO NOTHING;
