CREATE TABLE `calibration_fit_pairs` (
	`seq` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`fit_id` text NOT NULL,
	`source` text NOT NULL,
	`group_key` text NOT NULL,
	`label` text NOT NULL,
	`a` text NOT NULL,
	`b` text NOT NULL,
	`raw` real
);
--> statement-breakpoint
CREATE INDEX `calibration_fit_pairs_fit_idx` ON `calibration_fit_pairs` (`fit_id`,`seq`);--> statement-breakpoint
CREATE TABLE `calibration_fits` (
	`id` text PRIMARY KEY NOT NULL,
	`scope` text NOT NULL,
	`tenant_id` text NOT NULL,
	`model` text NOT NULL,
	`status` text DEFAULT 'running' NOT NULL,
	`phase` text DEFAULT 'collect' NOT NULL,
	`sources` text NOT NULL,
	`cursor` text DEFAULT '{}' NOT NULL,
	`pairs` integer DEFAULT 0 NOT NULL,
	`measured` integer DEFAULT 0 NOT NULL,
	`reason` text,
	`version` integer,
	`report` text,
	`created_by` text NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `calibration_fits_scope_idx` ON `calibration_fits` (`scope`,`created_at`);--> statement-breakpoint
CREATE UNIQUE INDEX `calibration_fits_running_idx` ON `calibration_fits` (`scope`,`model`) WHERE status = 'running';--> statement-breakpoint
CREATE TABLE `calibration_label_pairs` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`tenant_id` text NOT NULL,
	`a` text NOT NULL,
	`b` text NOT NULL,
	`label` text NOT NULL,
	`created_by` text NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `calibration_label_pairs_pair_idx` ON `calibration_label_pairs` (`tenant_id`,`a`,`b`);--> statement-breakpoint
CREATE TABLE `calibration_tables` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`scope` text NOT NULL,
	`model` text NOT NULL,
	`version` integer NOT NULL,
	`tables` text NOT NULL,
	`report` text NOT NULL,
	`active` integer DEFAULT false NOT NULL,
	`fit_id` text NOT NULL,
	`created_by` text NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `calibration_tables_version_idx` ON `calibration_tables` (`scope`,`model`,`version`);--> statement-breakpoint
CREATE UNIQUE INDEX `calibration_tables_active_idx` ON `calibration_tables` (`scope`,`model`) WHERE active = 1;