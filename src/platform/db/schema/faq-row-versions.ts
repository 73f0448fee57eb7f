/** A version per tenant of its FAQ and variant rows (src/features/faqs/row-cache.ts). */
import { sqliteTable, text, integer } from "drizzle-orm/sqlite-core";

/**
 * Bumped by triggers (migration 0012) on every insert, update and delete of a tenant's `faqs`
 * and `faq_variants` rows, whatever code path writes them, so an isolate's copy of those rows
 * knows when it is stale. `epoch` is random per row, so a recreated database never matches an
 * old copy.
 */
export const faqRowVersions = sqliteTable("faq_row_versions", {
  tenantId: text("tenant_id").primaryKey(),
  epoch: text("epoch").notNull(),
  counter: integer("counter").notNull(),
});
