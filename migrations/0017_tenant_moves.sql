CREATE TABLE `tenant_copies` (
	`tenant_id` text PRIMARY KEY NOT NULL,
	`table_index` integer DEFAULT 0 NOT NULL,
	`cursor` integer DEFAULT 0 NOT NULL,
	`rows` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE `tenant_moves` (
	`tenant_id` text PRIMARY KEY NOT NULL,
	`from_database` text NOT NULL,
	`to_database` text NOT NULL,
	`phase` text NOT NULL,
	`phase_at` integer NOT NULL,
	`table_index` integer DEFAULT 0 NOT NULL,
	`cursor` integer DEFAULT 0 NOT NULL,
	`target_cursor` integer DEFAULT 0 NOT NULL,
	`rows` integer DEFAULT 0 NOT NULL,
	`reason` text,
	`started_at` integer NOT NULL
);
