CREATE TABLE `faq_hits` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`tenant_id` text NOT NULL,
	`faq_id` text NOT NULL,
	`variant_id` text,
	`query_text` text NOT NULL,
	`score` real NOT NULL,
	`session_id` text NOT NULL,
	`hit_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `faq_hits_faq_idx` ON `faq_hits` (`tenant_id`,`faq_id`,`hit_at`);--> statement-breakpoint
CREATE INDEX `faq_hits_time_idx` ON `faq_hits` (`hit_at`);--> statement-breakpoint
CREATE TABLE `faq_relationships` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`source_faq_id` text NOT NULL,
	`target_faq_id` text NOT NULL,
	`pair_key` text NOT NULL,
	`relationship_type` text NOT NULL,
	`is_auto_generated` integer DEFAULT false NOT NULL,
	`similarity` real,
	`created_by` text NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `faq_relationships_pair_idx` ON `faq_relationships` (`tenant_id`,`pair_key`);--> statement-breakpoint
CREATE INDEX `faq_relationships_source_idx` ON `faq_relationships` (`tenant_id`,`source_faq_id`);--> statement-breakpoint
CREATE INDEX `faq_relationships_target_idx` ON `faq_relationships` (`tenant_id`,`target_faq_id`);--> statement-breakpoint
CREATE TABLE `faq_suggestions` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`cluster_key` text NOT NULL,
	`faq_id` text NOT NULL,
	`alternate_faq_id` text NOT NULL,
	`query_text` text NOT NULL,
	`samples` text DEFAULT '[]' NOT NULL,
	`count` integer DEFAULT 1 NOT NULL,
	`status` text DEFAULT 'open' NOT NULL,
	`first_seen_at` integer NOT NULL,
	`last_seen_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `faq_suggestions_cluster_idx` ON `faq_suggestions` (`tenant_id`,`cluster_key`);--> statement-breakpoint
CREATE INDEX `faq_suggestions_list_idx` ON `faq_suggestions` (`tenant_id`,`status`,`count`);--> statement-breakpoint
CREATE TABLE `faq_variants` (
	`seq` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`id` text NOT NULL,
	`tenant_id` text NOT NULL,
	`faq_id` text NOT NULL,
	`variant_text` text NOT NULL,
	`normalized_text` text NOT NULL,
	`source` text DEFAULT 'manual' NOT NULL,
	`source_ticket_id` text,
	`created_by` text NOT NULL,
	`created_at` integer NOT NULL,
	`index_state` text DEFAULT 'pending' NOT NULL,
	`index_attempts` integer DEFAULT 0 NOT NULL,
	`index_error` text,
	`embedding_model` text,
	FOREIGN KEY (`tenant_id`) REFERENCES `tenants`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `faq_variants_id_idx` ON `faq_variants` (`id`);--> statement-breakpoint
CREATE UNIQUE INDEX `faq_variants_text_idx` ON `faq_variants` (`tenant_id`,`faq_id`,`normalized_text`);--> statement-breakpoint
CREATE INDEX `faq_variants_index_state_idx` ON `faq_variants` (`index_state`,`seq`);--> statement-breakpoint
CREATE TABLE `faq_versions` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`tenant_id` text NOT NULL,
	`faq_id` text NOT NULL,
	`version_number` integer NOT NULL,
	`question` text NOT NULL,
	`answer` text NOT NULL,
	`tags` text NOT NULL,
	`change_type` text NOT NULL,
	`change_reason` text,
	`changed_by` text NOT NULL,
	`changed_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `faq_versions_number_idx` ON `faq_versions` (`faq_id`,`version_number`);--> statement-breakpoint
CREATE INDEX `faq_versions_changed_idx` ON `faq_versions` (`changed_at`);--> statement-breakpoint
CREATE TABLE `faqs` (
	`seq` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`id` text NOT NULL,
	`tenant_id` text NOT NULL,
	`question` text NOT NULL,
	`answer` text NOT NULL,
	`tags` text DEFAULT '[]' NOT NULL,
	`metadata` text DEFAULT '{}' NOT NULL,
	`version` integer DEFAULT 1 NOT NULL,
	`created_by` text NOT NULL,
	`created_at` integer NOT NULL,
	`updated_by` text NOT NULL,
	`updated_at` integer NOT NULL,
	`deleted_at` integer,
	`deleted_by` text,
	`index_state` text DEFAULT 'pending' NOT NULL,
	`index_attempts` integer DEFAULT 0 NOT NULL,
	`index_error` text,
	`embedding_model` text,
	FOREIGN KEY (`tenant_id`) REFERENCES `tenants`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `faqs_id_idx` ON `faqs` (`id`);--> statement-breakpoint
CREATE INDEX `faqs_tenant_idx` ON `faqs` (`tenant_id`,`deleted_at`,`seq`);--> statement-breakpoint
CREATE INDEX `faqs_index_state_idx` ON `faqs` (`index_state`,`seq`);