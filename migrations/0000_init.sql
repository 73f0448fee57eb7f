CREATE TABLE `api_keys` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`key_hash` text NOT NULL,
	`key_prefix` text NOT NULL,
	`role` text NOT NULL,
	`name` text DEFAULT '' NOT NULL,
	`created_at` integer NOT NULL,
	`revoked_at` integer,
	FOREIGN KEY (`tenant_id`) REFERENCES `tenants`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `api_keys_hash_idx` ON `api_keys` (`key_hash`);--> statement-breakpoint
CREATE INDEX `api_keys_tenant_idx` ON `api_keys` (`tenant_id`);--> statement-breakpoint
CREATE TABLE `memories` (
	`seq` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`id` text NOT NULL,
	`tenant_id` text NOT NULL,
	`scope` text NOT NULL,
	`content` text NOT NULL,
	`memory_type` text NOT NULL,
	`category` text,
	`importance` real DEFAULT 0.5 NOT NULL,
	`tags` text DEFAULT '[]' NOT NULL,
	`session_id` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	`index_state` text DEFAULT 'pending' NOT NULL,
	`index_attempts` integer DEFAULT 0 NOT NULL,
	`index_error` text,
	`embedding_model` text,
	FOREIGN KEY (`tenant_id`) REFERENCES `tenants`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `memories_id_idx` ON `memories` (`id`);--> statement-breakpoint
CREATE INDEX `memories_scope_idx` ON `memories` (`tenant_id`,`scope`,`created_at`);--> statement-breakpoint
CREATE INDEX `memories_index_state_idx` ON `memories` (`index_state`,`seq`);--> statement-breakpoint
CREATE TABLE `tenants` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `vectors` (
	`tenant_id` text NOT NULL,
	`collection` text NOT NULL,
	`id` text NOT NULL,
	`model` text NOT NULL,
	`dimensions` integer NOT NULL,
	`vector` blob NOT NULL,
	`metadata` text NOT NULL,
	`updated_at` integer NOT NULL,
	PRIMARY KEY(`tenant_id`, `collection`, `id`)
);
--> statement-breakpoint
CREATE INDEX `vectors_model_idx` ON `vectors` (`tenant_id`,`collection`,`model`);