CREATE TABLE "staging_items" (
	"seq" bigint GENERATED ALWAYS AS IDENTITY (sequence name "staging_items_seq_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"id" text PRIMARY KEY NOT NULL,
	"tenant_id" text NOT NULL,
	"ticket_row_id" text NOT NULL,
	"action" text NOT NULL,
	"question" text NOT NULL,
	"answer" text NOT NULL,
	"tags" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"faq_id" text,
	"variant_text" text,
	"similarity" double precision,
	"judge" text,
	"rationale" text,
	"status" text DEFAULT 'pending' NOT NULL,
	"created_at" bigint NOT NULL,
	"reviewed_by" text,
	"reviewed_at" bigint,
	"reject_reason" text,
	"result_faq_id" text
);
--> statement-breakpoint
CREATE TABLE "tickets" (
	"seq" bigint GENERATED ALWAYS AS IDENTITY (sequence name "tickets_seq_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"id" text PRIMARY KEY NOT NULL,
	"tenant_id" text NOT NULL,
	"ticket_id" text NOT NULL,
	"subject" text NOT NULL,
	"question" text NOT NULL,
	"answer" text NOT NULL,
	"tags" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"resolved_at" bigint NOT NULL,
	"source" text,
	"status" text DEFAULT 'received' NOT NULL,
	"received_at" bigint NOT NULL,
	"cleaned_question" text,
	"action" text,
	"similarity" double precision,
	"similarity_method" text,
	"matched_faq_id" text,
	"matched_variant_id" text,
	"judge" text,
	"rationale" text,
	"variant_id" text,
	"staging_id" text,
	"decided_at" bigint,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	"lease_until" bigint
);
--> statement-breakpoint
CREATE UNIQUE INDEX "staging_items_seq_idx" ON "staging_items" USING btree ("seq");--> statement-breakpoint
CREATE UNIQUE INDEX "staging_items_ticket_idx" ON "staging_items" USING btree ("ticket_row_id");--> statement-breakpoint
CREATE INDEX "staging_items_status_idx" ON "staging_items" USING btree ("tenant_id","status","seq");--> statement-breakpoint
CREATE UNIQUE INDEX "tickets_seq_idx" ON "tickets" USING btree ("seq");--> statement-breakpoint
CREATE UNIQUE INDEX "tickets_tenant_ticket_idx" ON "tickets" USING btree ("tenant_id","ticket_id");--> statement-breakpoint
CREATE INDEX "tickets_status_idx" ON "tickets" USING btree ("tenant_id","status","seq");--> statement-breakpoint
CREATE INDEX "tickets_received_idx" ON "tickets" USING btree ("status","received_at");