CREATE TABLE "faq_hits" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "faq_hits_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"tenant_id" text NOT NULL,
	"faq_id" text NOT NULL,
	"variant_id" text,
	"query_text" text NOT NULL,
	"score" double precision NOT NULL,
	"session_id" text NOT NULL,
	"hit_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "faq_relationships" (
	"id" text PRIMARY KEY NOT NULL,
	"tenant_id" text NOT NULL,
	"source_faq_id" text NOT NULL,
	"target_faq_id" text NOT NULL,
	"pair_key" text NOT NULL,
	"relationship_type" text NOT NULL,
	"is_auto_generated" boolean DEFAULT false NOT NULL,
	"similarity" double precision,
	"created_by" text NOT NULL,
	"created_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "faq_suggestions" (
	"id" text PRIMARY KEY NOT NULL,
	"tenant_id" text NOT NULL,
	"cluster_key" text NOT NULL,
	"faq_id" text NOT NULL,
	"alternate_faq_id" text NOT NULL,
	"query_text" text NOT NULL,
	"samples" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"count" integer DEFAULT 1 NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"first_seen_at" bigint NOT NULL,
	"last_seen_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE INDEX "faq_hits_faq_idx" ON "faq_hits" USING btree ("tenant_id","faq_id","hit_at");--> statement-breakpoint
CREATE INDEX "faq_hits_time_idx" ON "faq_hits" USING btree ("hit_at");--> statement-breakpoint
CREATE UNIQUE INDEX "faq_relationships_pair_idx" ON "faq_relationships" USING btree ("tenant_id","pair_key");--> statement-breakpoint
CREATE INDEX "faq_relationships_source_idx" ON "faq_relationships" USING btree ("tenant_id","source_faq_id");--> statement-breakpoint
CREATE INDEX "faq_relationships_target_idx" ON "faq_relationships" USING btree ("tenant_id","target_faq_id");--> statement-breakpoint
CREATE UNIQUE INDEX "faq_suggestions_cluster_idx" ON "faq_suggestions" USING btree ("tenant_id","cluster_key");--> statement-breakpoint
CREATE INDEX "faq_suggestions_list_idx" ON "faq_suggestions" USING btree ("tenant_id","status","count");