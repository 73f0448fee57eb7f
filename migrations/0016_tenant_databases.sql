CREATE TABLE `tenant_databases` (
	`tenant_id` text PRIMARY KEY NOT NULL,
	`database` text NOT NULL,
	`placed_at` integer NOT NULL
);
