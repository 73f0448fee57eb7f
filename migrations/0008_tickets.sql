CREATE TABLE `staging_items` (
	`seq` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`id` text NOT NULL,
	`tenant_id` text NOT NULL,
	`ticket_row_id` text NOT NULL,
	`action` text NOT NULL,
	`question` text NOT NULL,
	`answer` text NOT NULL,
	`tags` text DEFAULT '[]' NOT NULL,
	`faq_id` text,
	`variant_text` text,
	`similarity` real,
	`judge` text,
	`rationale` text,
	`status` text DEFAULT 'pending' NOT NULL,
	`created_at` integer NOT NULL,
	`reviewed_by` text,
	`reviewed_at` integer,
	`reject_reason` text,
	`result_faq_id` text,
	FOREIGN KEY (`tenant_id`) REFERENCES `tenants`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `staging_items_id_idx` ON `staging_items` (`id`);--> statement-breakpoint
CREATE UNIQUE INDEX `staging_items_ticket_idx` ON `staging_items` (`ticket_row_id`);--> statement-breakpoint
CREATE INDEX `staging_items_status_idx` ON `staging_items` (`tenant_id`,`status`,`seq`);--> statement-breakpoint
CREATE TABLE `tickets` (
	`seq` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`id` text NOT NULL,
	`tenant_id` text NOT NULL,
	`ticket_id` text NOT NULL,
	`subject` text NOT NULL,
	`question` text NOT NULL,
	`answer` text NOT NULL,
	`tags` text DEFAULT '[]' NOT NULL,
	`resolved_at` integer NOT NULL,
	`source` text,
	`status` text DEFAULT 'received' NOT NULL,
	`received_at` integer NOT NULL,
	`cleaned_question` text,
	`action` text,
	`similarity` real,
	`similarity_method` text,
	`matched_faq_id` text,
	`matched_variant_id` text,
	`judge` text,
	`rationale` text,
	`variant_id` text,
	`staging_id` text,
	`decided_at` integer,
	`attempts` integer DEFAULT 0 NOT NULL,
	`last_error` text,
	`lease_until` integer,
	FOREIGN KEY (`tenant_id`) REFERENCES `tenants`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `tickets_id_idx` ON `tickets` (`id`);--> statement-breakpoint
CREATE UNIQUE INDEX `tickets_tenant_ticket_idx` ON `tickets` (`tenant_id`,`ticket_id`);--> statement-breakpoint
CREATE INDEX `tickets_status_idx` ON `tickets` (`tenant_id`,`status`,`seq`);--> statement-breakpoint
CREATE TABLE `webhook_secrets` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`secret` text NOT NULL,
	`secret_prefix` text NOT NULL,
	`created_at` integer NOT NULL,
	`expires_at` integer,
	FOREIGN KEY (`tenant_id`) REFERENCES `tenants`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `webhook_secrets_tenant_idx` ON `webhook_secrets` (`tenant_id`,`created_at`);