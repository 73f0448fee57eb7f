/**
 * Tickets: one row per (tenant, sender's ticket id). The webhook stores a ticket as `received`
 * and enqueues it; the consumer records its decision (`decided`) or gives up on it
 * (`dead_letter`, with the last error). A redelivered ticket id inserts nothing. The rows live
 * behind the pipeline store port (port.ts); this is what the API shows of them.
 */
import type { TicketRecord } from "./port";

export type { TicketRecord } from "./port";

/** What the API shows of a ticket: its state and, once decided, the decision. */
export function toTicket(row: TicketRecord) {
  return {
    id: row.id,
    ticketId: row.ticketId,
    status: row.status,
    subject: row.subject,
    question: row.question,
    answer: row.answer,
    tags: row.tags,
    source: row.source,
    resolvedAt: new Date(row.resolvedAt).toISOString(),
    receivedAt: new Date(row.receivedAt).toISOString(),
    decision:
      row.action === null
        ? null
        : {
            action: row.action,
            cleanedQuestion: row.cleanedQuestion,
            similarity: row.similarity,
            similarityMethod: row.similarityMethod,
            matchedFaqId: row.matchedFaqId,
            matchedVariantId: row.matchedVariantId,
            judge: row.judge,
            rationale: row.rationale,
            variantId: row.variantId,
            stagingId: row.stagingId,
            decidedAt: row.decidedAt === null ? null : new Date(row.decidedAt).toISOString(),
          },
    attempts: row.attempts,
    lastError: row.lastError,
  };
}
