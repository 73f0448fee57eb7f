/**
 * The show archive in D1 (table show_archive): one row per (tenant, show) so shows can be listed
 * without waking their Durable Objects. The show routes write it after each change; the daily
 * retention cron deletes rows whose show has been idle for SHOW_ARCHIVE_RETENTION_DAYS.
 */
import type { Services } from "../../platform/ports/services";
import type { ShowSummary } from "./types";

export const SHOW_ARCHIVE_RETENTION_DAYS = 30;
const DAY_MS = 24 * 3600 * 1000;

export interface ArchivedShow {
  showId: string;
  startedAt: number | null;
  lastActivityAt: number;
  endedAt: number | null;
  questionCount: number;
  usedCount: number;
  averageNovelty: number | null;
}

/**
 * An ended show's row keeps its end: a rank's row is written after its answer
 * (src/http/routes/shows.ts) and may land after the row of an end that followed it.
 */
export async function recordShow(db: D1Database, tenantId: string, showId: string, summary: ShowSummary, now: number): Promise<void> {
  await db
    .prepare(
      `INSERT INTO show_archive (tenant_id, show_id, started_at, last_activity_at, ended_at, question_count, used_count, average_novelty, archived_at)
       VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)
       ON CONFLICT (tenant_id, show_id) DO UPDATE SET started_at = excluded.started_at, last_activity_at = excluded.last_activity_at,
         ended_at = excluded.ended_at, question_count = excluded.question_count, used_count = excluded.used_count,
         average_novelty = excluded.average_novelty, archived_at = excluded.archived_at
       WHERE show_archive.ended_at IS NULL OR excluded.ended_at IS NOT NULL`,
    )
    .bind(
      tenantId,
      showId,
      summary.startedAt,
      summary.lastActivityAt ?? now,
      summary.endedAt,
      summary.questionCount,
      summary.usedCount,
      summary.averageNovelty,
      now,
    )
    .run();
}

/** The tenant's shows, most recently active first. */
/** Most recently active first: at most `limit`, after the (last_activity_at, show_id) position `after` when given. */
export async function listShows(
  db: D1Database,
  tenantId: string,
  page: { limit: number; after?: readonly [number, string] | undefined },
): Promise<ArchivedShow[]> {
  const { results } = await db
    .prepare(
      `SELECT show_id, started_at, last_activity_at, ended_at, question_count, used_count, average_novelty
       FROM show_archive WHERE tenant_id = ?1 AND (?2 IS NULL OR last_activity_at < ?2 OR (last_activity_at = ?2 AND show_id > ?3))
       ORDER BY last_activity_at DESC, show_id LIMIT ?4`,
    )
    .bind(tenantId, page.after?.[0] ?? null, page.after?.[1] ?? "", page.limit)
    .all<Record<string, number | string | null>>();
  return results.map((r) => ({
    showId: r.show_id as string,
    startedAt: r.started_at as number | null,
    lastActivityAt: r.last_activity_at as number,
    endedAt: r.ended_at as number | null,
    questionCount: r.question_count as number,
    usedCount: r.used_count as number,
    averageNovelty: r.average_novelty as number | null,
  }));
}

/** Cron job: deletes archive rows of shows idle for more than 30 days (their questions are gone by then too). */
export async function pruneShowArchive(services: Services): Promise<{ deleted: number }> {
  const cutoff = services.clock.now() - SHOW_ARCHIVE_RETENTION_DAYS * DAY_MS;
  const result = await services.db.prepare("DELETE FROM show_archive WHERE last_activity_at < ?").bind(cutoff).run();
  return { deleted: result.meta.changes ?? 0 };
}
