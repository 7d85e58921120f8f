ALTER TABLE "credit_ledger" ADD COLUMN "ref" uuid;--> statement-breakpoint
CREATE INDEX "credit_ledger_ref_spend_idx" ON "credit_ledger" USING btree ("created_at") WHERE "credit_ledger"."ref" is not null and "credit_ledger"."delta" < 0;--> statement-breakpoint
CREATE UNIQUE INDEX "credit_ledger_ref_refund_idx" ON "credit_ledger" USING btree ("ref") WHERE "credit_ledger"."delta" > 0;