CREATE TABLE `vector_collections` (
	`tenant_id` text NOT NULL,
	`collection` text NOT NULL,
	`epoch` text NOT NULL,
	`counter` integer NOT NULL,
	PRIMARY KEY(`tenant_id`, `collection`)
);
