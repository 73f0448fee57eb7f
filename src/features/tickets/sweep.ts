/**
 * Cron safety net: a ticket still `received` long after it arrived lost its queue message (the
 * platform's dead-letter queue took it, or a send was lost). It is sent again; the consumer's
 * lease and its decided-check make a duplicate delivery harmless.
 */
import type { TicketMessage } from "../../platform/ports/ticket-message";
import type { PipelineStore } from "./port";

/** A ticket undecided this long after arrival is presumed stranded (the consumer's own retries take about 10 minutes). */
export const STRANDED_AFTER_MS = 15 * 60 * 1000;
/** Tickets re-sent per cron run. */
export const SWEEP_BATCH = 100;

export async function resendStrandedTickets(store: PipelineStore, queue: Queue<TicketMessage>, now: number): Promise<{ resent: number }> {
  const stranded = await store.strandedTickets(now - STRANDED_AFTER_MS, now, SWEEP_BATCH);
  if (stranded.length > 0) {
    await queue.sendBatch(stranded.map((r) => ({ body: { tenantId: r.tenantId, ticketRowId: r.id }, contentType: "json" as const })));
  }
  return { resent: stranded.length };
}
