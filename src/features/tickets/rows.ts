/** What both pipeline store adapters write, built once: the rows and column sets of the D1 schema's shape. */
import { type StagingStatus, stagingStatuses } from "../../platform/db/schema";
import type { NewStagingItem, Page, TicketDecision, TicketRecord } from "./port";
import type { TicketInput } from "../../platform/ports/ticket-message";

export function newTicketRow(id: string, tenantId: string, input: TicketInput, receivedAt: number) {
  return {
    id,
    tenantId,
    ticketId: input.ticketId,
    subject: input.subject,
    question: input.question,
    answer: input.answer,
    tags: input.tags,
    resolvedAt: input.resolvedAt,
    source: input.source ?? null,
    status: "received" as const,
    receivedAt,
  };
}

/** A ticket as intake answers it before it could be stored (queue-carried while the store is down: intake.ts). */
export function unstoredTicket(id: string, tenantId: string, input: TicketInput, receivedAt: number): TicketRecord {
  return {
    ...newTicketRow(id, tenantId, input, receivedAt),
    seq: 0,
    cleanedQuestion: null,
    action: null,
    similarity: null,
    similarityMethod: null,
    matchedFaqId: null,
    matchedVariantId: null,
    judge: null,
    rationale: null,
    variantId: null,
    stagingId: null,
    decidedAt: null,
    attempts: 0,
    lastError: null,
    leaseUntil: null,
  };
}

/** The ticket's columns a decision sets (the staging id is read from the staging table by each adapter). */
export function decisionColumns(d: TicketDecision, now: number) {
  return {
    status: "decided" as const,
    cleanedQuestion: d.cleanedQuestion,
    action: d.action,
    similarity: d.similarity,
    similarityMethod: d.similarityMethod,
    matchedFaqId: d.matchedFaqId,
    matchedVariantId: d.matchedVariantId,
    judge: d.judge,
    rationale: d.rationale,
    variantId: d.variantId,
    decidedAt: now,
    leaseUntil: null,
    lastError: null,
  };
}

export function newStagingRow(ticket: Pick<TicketRecord, "id" | "tenantId">, d: TicketDecision, item: NewStagingItem, now: number) {
  return {
    id: item.id,
    tenantId: ticket.tenantId,
    ticketRowId: ticket.id,
    action: item.action,
    question: item.question,
    answer: item.answer,
    tags: item.tags,
    faqId: item.faqId,
    variantText: item.variantText,
    similarity: d.similarity,
    judge: d.judge,
    rationale: d.rationale,
    status: "pending" as const,
    createdAt: now,
  };
}

/** Rows fetched with `limit + 1`: the page and, when there is more, the cursor (the last row's seq). */
export function pageOf<Row extends { seq: number }>(rows: Row[], limit: number): Page<Row> {
  const page = rows.slice(0, limit);
  return { rows: page, nextCursor: rows.length > limit ? (page[page.length - 1]?.seq ?? null) : null };
}

/** Counts by status, every status present (a status without items is 0). */
export function countsByStatus(rows: readonly { status: StagingStatus; n: number }[]): Record<StagingStatus, number> {
  const counts = Object.fromEntries(stagingStatuses.map((status) => [status, 0])) as Record<StagingStatus, number>;
  for (const r of rows) counts[r.status] = Number(r.n);
  return counts;
}
