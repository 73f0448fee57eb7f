CREATE TABLE `memory_cards` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`scope` text NOT NULL,
	`kind` text NOT NULL,
	`entity` text NOT NULL,
	`slot` text NOT NULL,
	`value` text NOT NULL,
	`polarity` text,
	`confidence` real NOT NULL,
	`version_key` text NOT NULL,
	`version_relation` text NOT NULL,
	`source_memory_id` text NOT NULL,
	`created_at` integer NOT NULL,
	`superseded_at` integer,
	FOREIGN KEY (`tenant_id`) REFERENCES `tenants`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `memory_cards_lookup_idx` ON `memory_cards` (`tenant_id`,`scope`,`entity`,`slot`);--> statement-breakpoint
CREATE INDEX `memory_cards_source_idx` ON `memory_cards` (`source_memory_id`);