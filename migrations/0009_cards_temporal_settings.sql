CREATE TABLE `tenant_settings` (
	`tenant_id` text PRIMARY KEY NOT NULL,
	`settings` text NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`tenant_id`) REFERENCES `tenants`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
ALTER TABLE `memory_cards` ADD `superseded_by` text;--> statement-breakpoint
ALTER TABLE `memory_cards` ADD `event_date` integer;--> statement-breakpoint
ALTER TABLE `memory_cards` ADD `document_date` integer;--> statement-breakpoint
ALTER TABLE `memory_cards` ADD `extra` text;--> statement-breakpoint
-- Cards stored before this migration were recorded when their source memory was created.
UPDATE `memory_cards` SET `document_date` = `created_at` WHERE `document_date` IS NULL;
