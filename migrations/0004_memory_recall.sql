CREATE TABLE `latency_samples` (
	`tenant_id` text NOT NULL,
	`name` text NOT NULL,
	`ms` real NOT NULL,
	`at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `latency_samples_idx` ON `latency_samples` (`tenant_id`,`name`,`at`);--> statement-breakpoint
CREATE TABLE `metric_counters` (
	`tenant_id` text NOT NULL,
	`day` text NOT NULL,
	`name` text NOT NULL,
	`count` integer DEFAULT 0 NOT NULL,
	`sum` real DEFAULT 0 NOT NULL,
	PRIMARY KEY(`tenant_id`, `day`, `name`)
);
--> statement-breakpoint
CREATE TABLE `session_files` (
	`tenant_id` text NOT NULL,
	`session_id` text NOT NULL,
	`path` text NOT NULL,
	`line_index` integer NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `session_files_recent_idx` ON `session_files` (`tenant_id`,`session_id`,`line_index`);--> statement-breakpoint
ALTER TABLE `memories` ADD `recall_count` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `memories` ADD `last_recalled_at` integer;