ALTER TABLE `vector_collections` ADD `size` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `vector_collections` ADD `partial` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- Hand-written from here: drizzle cannot describe backfills or triggers. VECTOR_INDEX=auto
-- (src/vectors/auto.ts) reads both columns with a collection's version to choose its index.
-- `size`: the vectors each collection holds now.
INSERT INTO `vector_collections` (`tenant_id`, `collection`, `epoch`, `counter`, `size`)
  SELECT `tenant_id`, `collection`, lower(hex(randomblob(8))), 1, count(*) FROM `vectors` WHERE true GROUP BY `tenant_id`, `collection`
  ON CONFLICT (`tenant_id`, `collection`) DO UPDATE SET `size` = excluded.`size`;
--> statement-breakpoint
-- `partial`: a collection with a read-your-writes buffer (`<collection>#recent`) was written under
-- VECTOR_INDEX=vectorize, which keeps only that buffer in D1: its vectors are in Vectorize, not all in
-- D1, so it stays on Vectorize. Its row is created when missing, so that the mark holds.
INSERT INTO `vector_collections` (`tenant_id`, `collection`, `epoch`, `counter`, `size`)
  SELECT `tenant_id`, substr(`collection`, 1, length(`collection`) - 7), lower(hex(randomblob(8))), 1, 0 FROM `vector_collections`
  WHERE `collection` LIKE '%#recent'
  ON CONFLICT (`tenant_id`, `collection`) DO NOTHING;
--> statement-breakpoint
UPDATE `vector_collections` SET `partial` = 1
  WHERE `collection` NOT LIKE '%#recent' AND EXISTS (
    SELECT 1 FROM `vector_collections` AS `b`
    WHERE `b`.`tenant_id` = `vector_collections`.`tenant_id` AND `b`.`collection` = `vector_collections`.`collection` || '#recent'
  );
--> statement-breakpoint
-- From now on the triggers keep `size`, whatever code writes `vectors`. An upsert that rewrites a row
-- fires no INSERT trigger, so a rewrite does not count twice.
CREATE TRIGGER `vectors_size_insert` AFTER INSERT ON `vectors` BEGIN
  INSERT INTO `vector_collections` (`tenant_id`, `collection`, `epoch`, `counter`, `size`)
    VALUES (NEW.`tenant_id`, NEW.`collection`, lower(hex(randomblob(8))), 0, 1)
    ON CONFLICT (`tenant_id`, `collection`) DO UPDATE SET `size` = `size` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `vectors_size_delete` AFTER DELETE ON `vectors` BEGIN
  UPDATE `vector_collections` SET `size` = max(`size` - 1, 0) WHERE `tenant_id` = OLD.`tenant_id` AND `collection` = OLD.`collection`;
END;
--> statement-breakpoint
-- A collection first written under auto has no buffer yet when its row is created (auto writes D1
-- first); one that has a buffer already was written under VECTOR_INDEX=vectorize.
CREATE TRIGGER `vector_collections_partial` AFTER INSERT ON `vector_collections`
  WHEN NEW.`collection` NOT LIKE '%#recent' AND EXISTS (
    SELECT 1 FROM `vector_collections` WHERE `tenant_id` = NEW.`tenant_id` AND `collection` = NEW.`collection` || '#recent'
  )
BEGIN
  UPDATE `vector_collections` SET `partial` = 1 WHERE `tenant_id` = NEW.`tenant_id` AND `collection` = NEW.`collection`;
END;
