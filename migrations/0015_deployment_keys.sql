CREATE TABLE `deployment_keys` (
	`name` text PRIMARY KEY NOT NULL,
	`key_hex` text NOT NULL
);
--> statement-breakpoint
-- Hand-written from here: the deployment's sealing key, made where the schema is made (src/db/schema/deployment-keys.ts).
INSERT INTO `deployment_keys` (`name`, `key_hex`) VALUES ('sealing', lower(hex(randomblob(32)))) ON CONFLICT (`name`) DO NOTHING;
