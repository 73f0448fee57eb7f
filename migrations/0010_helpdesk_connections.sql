CREATE TABLE `helpdesk_connections` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`provider` text NOT NULL,
	`name` text NOT NULL,
	`created_at` integer NOT NULL,
	`revoked_at` integer,
	FOREIGN KEY (`tenant_id`) REFERENCES `tenants`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `helpdesk_connections_tenant_idx` ON `helpdesk_connections` (`tenant_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `helpdesk_threads` (
	`connection_id` text NOT NULL,
	`external_id` text NOT NULL,
	`tenant_id` text NOT NULL,
	`subject` text DEFAULT '' NOT NULL,
	`question` text,
	`answer` text,
	`updated_at` integer NOT NULL,
	PRIMARY KEY(`connection_id`, `external_id`)
);
--> statement-breakpoint
CREATE INDEX `helpdesk_threads_updated_idx` ON `helpdesk_threads` (`updated_at`);--> statement-breakpoint
CREATE TABLE `webhook_deliveries` (
	`connection_id` text NOT NULL,
	`delivery_key` text NOT NULL,
	`tenant_id` text NOT NULL,
	`received_at` integer NOT NULL,
	`outcome` text NOT NULL,
	`reason` text,
	`external_id` text,
	`ticket_row_id` text,
	PRIMARY KEY(`connection_id`, `delivery_key`)
);
--> statement-breakpoint
CREATE INDEX `webhook_deliveries_tenant_idx` ON `webhook_deliveries` (`tenant_id`,`received_at`);--> statement-breakpoint
PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_webhook_secrets` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`secret` text,
	`ciphertext` text,
	`key_id` text,
	`connection_id` text,
	`secret_prefix` text NOT NULL,
	`created_at` integer NOT NULL,
	`expires_at` integer,
	FOREIGN KEY (`tenant_id`) REFERENCES `tenants`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
INSERT INTO `__new_webhook_secrets`("id", "tenant_id", "secret", "ciphertext", "key_id", "connection_id", "secret_prefix", "created_at", "expires_at") SELECT "id", "tenant_id", "secret", NULL, NULL, NULL, "secret_prefix", "created_at", "expires_at" FROM `webhook_secrets`;--> statement-breakpoint
DROP TABLE `webhook_secrets`;--> statement-breakpoint
ALTER TABLE `__new_webhook_secrets` RENAME TO `webhook_secrets`;--> statement-breakpoint
PRAGMA foreign_keys=ON;--> statement-breakpoint
CREATE INDEX `webhook_secrets_tenant_idx` ON `webhook_secrets` (`tenant_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `webhook_secrets_connection_idx` ON `webhook_secrets` (`connection_id`);