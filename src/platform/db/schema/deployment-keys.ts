/**
 * Keys the deployment makes for itself, one row each, written by their migration with SQLite's
 * randomblob (migrations/0015): they exist wherever the schema does, with nothing to configure.
 * `sealing`: seals what the API hands out and takes back (list cursors, read-your-writes
 * bookmarks), so none shows a database-wide position to a tenant (src/http/sealed.ts).
 */
import { sqliteTable, text } from "drizzle-orm/sqlite-core";

export const deploymentKeys = sqliteTable("deployment_keys", {
  name: text("name").primaryKey(),
  /** 32 random bytes, hex. */
  keyHex: text("key_hex").notNull(),
});
