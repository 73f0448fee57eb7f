/**
 * Cron safety net: a ticket still `received` long after it arrived lost its queue message (the
 * platform's dead-letter queue took it, or a send was lost). It is sent again; the consumer's
 * lease and its decided-check make a duplicate delivery harmless.
 */
import type { TicketMessage } from "./consume";

/** A ticket undecided this long after arrival is presumed stranded (the consumer's own retries take about 10 minutes). */
export const STRANDED_AFTER_MS = 15 * 60 * 1000;
/** Tickets re-sent per cron run. */
export const SWEEP_BATCH = 100;

export async function resendStrandedTickets(db: D1Database, queue: Queue<TicketMessage>, now: number): Promise<{ resent: number }> {
  const { results } = await db
    .prepare(
      `SELECT id, tenant_id FROM tickets
       WHERE status = 'received' AND received_at < ? AND (lease_until IS NULL OR lease_until < ?)
       ORDER BY seq LIMIT ?`,
    )
    .bind(now - STRANDED_AFTER_MS, now, SWEEP_BATCH)
    .all<{ id: string; tenant_id: string }>();
  if (results.length > 0) {
    await queue.sendBatch(results.map((r) => ({ body: { tenantId: r.tenant_id, ticketRowId: r.id }, contentType: "json" as const })));
  }
  return { resent: results.length };
}
