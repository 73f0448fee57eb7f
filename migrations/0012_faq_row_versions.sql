-- A version per tenant of its FAQ and variant rows (src/faqs/row-cache.ts): every insert, update and
-- delete bumps it, whatever code writes the row. Hand-written triggers: drizzle cannot describe them.
CREATE TABLE `faq_row_versions` (
	`tenant_id` text PRIMARY KEY NOT NULL,
	`epoch` text NOT NULL,
	`counter` integer NOT NULL
);
--> statement-breakpoint
CREATE TRIGGER `faqs_row_version_insert` AFTER INSERT ON `faqs` BEGIN
  INSERT INTO `faq_row_versions` (`tenant_id`, `epoch`, `counter`) VALUES (NEW.`tenant_id`, lower(hex(randomblob(8))), 1)
    ON CONFLICT (`tenant_id`) DO UPDATE SET `counter` = `counter` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `faqs_row_version_update` AFTER UPDATE ON `faqs` BEGIN
  INSERT INTO `faq_row_versions` (`tenant_id`, `epoch`, `counter`) VALUES (NEW.`tenant_id`, lower(hex(randomblob(8))), 1)
    ON CONFLICT (`tenant_id`) DO UPDATE SET `counter` = `counter` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `faqs_row_version_delete` AFTER DELETE ON `faqs` BEGIN
  INSERT INTO `faq_row_versions` (`tenant_id`, `epoch`, `counter`) VALUES (OLD.`tenant_id`, lower(hex(randomblob(8))), 1)
    ON CONFLICT (`tenant_id`) DO UPDATE SET `counter` = `counter` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `faq_variants_row_version_insert` AFTER INSERT ON `faq_variants` BEGIN
  INSERT INTO `faq_row_versions` (`tenant_id`, `epoch`, `counter`) VALUES (NEW.`tenant_id`, lower(hex(randomblob(8))), 1)
    ON CONFLICT (`tenant_id`) DO UPDATE SET `counter` = `counter` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `faq_variants_row_version_update` AFTER UPDATE ON `faq_variants` BEGIN
  INSERT INTO `faq_row_versions` (`tenant_id`, `epoch`, `counter`) VALUES (NEW.`tenant_id`, lower(hex(randomblob(8))), 1)
    ON CONFLICT (`tenant_id`) DO UPDATE SET `counter` = `counter` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `faq_variants_row_version_delete` AFTER DELETE ON `faq_variants` BEGIN
  INSERT INTO `faq_row_versions` (`tenant_id`, `epoch`, `counter`) VALUES (OLD.`tenant_id`, lower(hex(randomblob(8))), 1)
    ON CONFLICT (`tenant_id`) DO UPDATE SET `counter` = `counter` + 1;
END;
