/**
 * Tickets: one row per (tenant, sender's ticket id). The webhook stores a ticket as `received`
 * and enqueues it; the consumer records its decision (`decided`) or gives up on it
 * (`dead_letter`, with the last error). A redelivered ticket id inserts nothing.
 */
import type { TicketStatus } from "../db/schema";
import { newId } from "../ids";
import type { TicketAction } from "./decide";

export interface TicketInput {
  ticketId: string;
  subject: string;
  question: string;
  answer: string;
  tags: string[];
  /** Epoch milliseconds. */
  resolvedAt: number;
  source?: string | undefined;
}

export interface TicketRow {
  seq: number;
  id: string;
  tenant_id: string;
  ticket_id: string;
  subject: string;
  question: string;
  answer: string;
  tags: string;
  resolved_at: number;
  source: string | null;
  status: TicketStatus;
  received_at: number;
  cleaned_question: string | null;
  action: TicketAction | null;
  similarity: number | null;
  similarity_method: "calibrated" | "raw" | "lexical" | null;
  matched_faq_id: string | null;
  matched_variant_id: string | null;
  judge: string | null;
  rationale: string | null;
  variant_id: string | null;
  staging_id: string | null;
  decided_at: number | null;
  attempts: number;
  last_error: string | null;
  lease_until: number | null;
}

/** What the API shows of a ticket: its state and, once decided, the decision. */
export function toTicket(row: TicketRow) {
  return {
    id: row.id,
    ticketId: row.ticket_id,
    status: row.status,
    subject: row.subject,
    question: row.question,
    answer: row.answer,
    tags: JSON.parse(row.tags) as string[],
    source: row.source,
    resolvedAt: new Date(row.resolved_at).toISOString(),
    receivedAt: new Date(row.received_at).toISOString(),
    decision:
      row.action === null
        ? null
        : {
            action: row.action,
            cleanedQuestion: row.cleaned_question,
            similarity: row.similarity,
            similarityMethod: row.similarity_method,
            matchedFaqId: row.matched_faq_id,
            matchedVariantId: row.matched_variant_id,
            judge: row.judge,
            rationale: row.rationale,
            variantId: row.variant_id,
            stagingId: row.staging_id,
            decidedAt: row.decided_at === null ? null : new Date(row.decided_at).toISOString(),
          },
    attempts: row.attempts,
    lastError: row.last_error,
  };
}

/** Inserts the ticket unless the tenant already has this ticket id; `created: false` returns the first one. */
export async function insertTicket(
  db: D1Database,
  tenantId: string,
  input: TicketInput,
  now: number,
): Promise<{ row: TicketRow; created: boolean }> {
  const id = newId("tkt");
  const inserted = await db
    .prepare(
      `INSERT INTO tickets (id, tenant_id, ticket_id, subject, question, answer, tags, resolved_at, source, status, received_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 'received', ?) ON CONFLICT (tenant_id, ticket_id) DO NOTHING`,
    )
    .bind(
      id,
      tenantId,
      input.ticketId,
      input.subject,
      input.question,
      input.answer,
      JSON.stringify(input.tags),
      input.resolvedAt,
      input.source ?? null,
      now,
    )
    .run();
  const row = await getTicketByExternalId(db, tenantId, input.ticketId);
  if (!row) throw new Error("ticket row missing after insert");
  return { row, created: (inserted.meta.changes ?? 0) > 0 };
}

/** Removes a ticket that was stored but could not be enqueued (the sender is told to retry). */
export async function deleteReceivedTicket(db: D1Database, tenantId: string, id: string): Promise<void> {
  await db.prepare("DELETE FROM tickets WHERE id = ? AND tenant_id = ? AND status = 'received' AND attempts = 0").bind(id, tenantId).run();
}

export async function getTicket(db: D1Database, tenantId: string, id: string): Promise<TicketRow | null> {
  return db.prepare("SELECT * FROM tickets WHERE id = ? AND tenant_id = ?").bind(id, tenantId).first<TicketRow>();
}

export async function getTicketByExternalId(db: D1Database, tenantId: string, ticketId: string): Promise<TicketRow | null> {
  return db.prepare("SELECT * FROM tickets WHERE tenant_id = ? AND ticket_id = ?").bind(tenantId, ticketId).first<TicketRow>();
}

export async function listTickets(
  db: D1Database,
  tenantId: string,
  args: { status?: TicketStatus | undefined; limit: number; before?: number | undefined },
): Promise<{ rows: TicketRow[]; nextCursor: number | null }> {
  const { results } = await db
    .prepare("SELECT * FROM tickets WHERE tenant_id = ? AND (? IS NULL OR status = ?) AND seq < ? ORDER BY seq DESC LIMIT ?")
    .bind(tenantId, args.status ?? null, args.status ?? null, args.before ?? Number.MAX_SAFE_INTEGER, args.limit + 1)
    .all<TicketRow>();
  const rows = results.slice(0, args.limit);
  return { rows, nextCursor: results.length > args.limit ? (rows[rows.length - 1]?.seq ?? null) : null };
}
