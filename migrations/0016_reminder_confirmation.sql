ALTER TABLE "users" ADD COLUMN "reminder_confirmed_email" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "reminder_confirmation_sent_email" text;