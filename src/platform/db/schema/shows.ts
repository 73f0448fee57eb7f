import { index, integer, primaryKey, real, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { tenants } from "./core";

/**
 * One row per show, for listing shows (GET /v1/shows): written by the show routes after each
 * change and by the daily retention cron, which also deletes rows idle for 30 days. The show's
 * questions themselves live in its ShowMemory Durable Object.
 */
export const showArchive = sqliteTable(
  "show_archive",
  {
    tenantId: text("tenant_id")
      .notNull()
      .references(() => tenants.id),
    showId: text("show_id").notNull(),
    startedAt: integer("started_at"),
    lastActivityAt: integer("last_activity_at").notNull(),
    endedAt: integer("ended_at"),
    questionCount: integer("question_count").notNull().default(0),
    usedCount: integer("used_count").notNull().default(0),
    averageNovelty: real("average_novelty"),
    /** When this row was last written (route or cron). */
    archivedAt: integer("archived_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.showId] }), index("show_archive_activity_idx").on(t.lastActivityAt)],
);
