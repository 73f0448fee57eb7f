CREATE TABLE "faq_variants" (
	"seq" bigint GENERATED ALWAYS AS IDENTITY (sequence name "faq_variants_seq_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"id" text PRIMARY KEY NOT NULL,
	"tenant_id" text NOT NULL,
	"faq_id" text NOT NULL,
	"variant_text" text NOT NULL,
	"normalized_text" text NOT NULL,
	"source" text DEFAULT 'manual' NOT NULL,
	"source_ticket_id" text,
	"created_by" text NOT NULL,
	"created_at" bigint NOT NULL,
	"index_state" text DEFAULT 'pending' NOT NULL,
	"index_attempts" integer DEFAULT 0 NOT NULL,
	"index_error" text,
	"embedding_model" text,
	"embedding" vector,
	"body_terms" text NOT NULL,
	"search" "tsvector" GENERATED ALWAYS AS (to_tsvector('recall_fts', body_terms)) STORED
);
--> statement-breakpoint
CREATE TABLE "faq_versions" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "faq_versions_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"tenant_id" text NOT NULL,
	"faq_id" text NOT NULL,
	"version_number" integer NOT NULL,
	"question" text NOT NULL,
	"answer" text NOT NULL,
	"tags" jsonb NOT NULL,
	"change_type" text NOT NULL,
	"change_reason" text,
	"changed_by" text NOT NULL,
	"changed_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "faqs" (
	"seq" bigint GENERATED ALWAYS AS IDENTITY (sequence name "faqs_seq_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"id" text PRIMARY KEY NOT NULL,
	"tenant_id" text NOT NULL,
	"question" text NOT NULL,
	"answer" text NOT NULL,
	"tags" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"metadata" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_by" text NOT NULL,
	"created_at" bigint NOT NULL,
	"updated_by" text NOT NULL,
	"updated_at" bigint NOT NULL,
	"deleted_at" bigint,
	"deleted_by" text,
	"index_state" text DEFAULT 'pending' NOT NULL,
	"index_attempts" integer DEFAULT 0 NOT NULL,
	"index_error" text,
	"embedding_model" text,
	"embedding" vector,
	"question_terms" text NOT NULL,
	"answer_terms" text NOT NULL,
	"search" "tsvector" GENERATED ALWAYS AS (setweight(to_tsvector('recall_fts', question_terms), 'A') || setweight(to_tsvector('recall_fts', answer_terms), 'B')) STORED
);
--> statement-breakpoint
ALTER TABLE "faq_variants" ADD CONSTRAINT "faq_variants_faq_id_faqs_id_fk" FOREIGN KEY ("faq_id") REFERENCES "public"."faqs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "faq_versions" ADD CONSTRAINT "faq_versions_faq_id_faqs_id_fk" FOREIGN KEY ("faq_id") REFERENCES "public"."faqs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "faq_variants_seq_idx" ON "faq_variants" USING btree ("seq");--> statement-breakpoint
CREATE UNIQUE INDEX "faq_variants_text_idx" ON "faq_variants" USING btree ("tenant_id","faq_id","normalized_text");--> statement-breakpoint
CREATE INDEX "faq_variants_faq_idx" ON "faq_variants" USING btree ("tenant_id","faq_id","seq");--> statement-breakpoint
CREATE INDEX "faq_variants_index_state_idx" ON "faq_variants" USING btree ("index_state","seq");--> statement-breakpoint
CREATE INDEX "faq_variants_search_idx" ON "faq_variants" USING gin ("search");--> statement-breakpoint
CREATE UNIQUE INDEX "faq_versions_number_idx" ON "faq_versions" USING btree ("faq_id","version_number");--> statement-breakpoint
CREATE INDEX "faq_versions_changed_idx" ON "faq_versions" USING btree ("changed_at");--> statement-breakpoint
CREATE UNIQUE INDEX "faqs_seq_idx" ON "faqs" USING btree ("seq");--> statement-breakpoint
CREATE INDEX "faqs_tenant_idx" ON "faqs" USING btree ("tenant_id","deleted_at","seq");--> statement-breakpoint
CREATE INDEX "faqs_index_state_idx" ON "faqs" USING btree ("index_state","seq");--> statement-breakpoint
CREATE INDEX "faqs_search_idx" ON "faqs" USING gin ("search");--> statement-breakpoint
CREATE INDEX "faqs_tags_idx" ON "faqs" USING gin ("tags");