CREATE TABLE `show_archive` (
	`tenant_id` text NOT NULL,
	`show_id` text NOT NULL,
	`started_at` integer,
	`last_activity_at` integer NOT NULL,
	`ended_at` integer,
	`question_count` integer DEFAULT 0 NOT NULL,
	`used_count` integer DEFAULT 0 NOT NULL,
	`average_novelty` real,
	`archived_at` integer NOT NULL,
	PRIMARY KEY(`tenant_id`, `show_id`),
	FOREIGN KEY (`tenant_id`) REFERENCES `tenants`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `show_archive_activity_idx` ON `show_archive` (`last_activity_at`);