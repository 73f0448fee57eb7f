/**
 * Staging: MERGE and NEW proposals wait here for a person (seed 002 §6.1). Approving applies them
 * through the FAQ module (NEW creates the FAQ; MERGE updates it, versioned, and adds the ticket's
 * question as a `pipeline` variant); an item is approved or rejected once (a second time: conflict).
 */
import type { StagingStatus } from "../db/schema";
import { faqStore } from "../faqs/select";
import type { Services } from "../services";
import { toFaqTags } from "../faqs/tags";
import { err, ok, type Result } from "../result";

export interface StagingRow {
  seq: number;
  id: string;
  tenant_id: string;
  ticket_row_id: string;
  action: "MERGE" | "NEW";
  question: string;
  answer: string;
  tags: string;
  faq_id: string | null;
  variant_text: string | null;
  similarity: number | null;
  judge: string | null;
  rationale: string | null;
  status: StagingStatus;
  created_at: number;
  reviewed_by: string | null;
  reviewed_at: number | null;
  reject_reason: string | null;
  result_faq_id: string | null;
}

export function toStaging(row: StagingRow & { ticket_id?: string | null }) {
  return {
    id: row.id,
    action: row.action,
    status: row.status,
    question: row.question,
    answer: row.answer,
    tags: JSON.parse(row.tags) as string[],
    faqId: row.faq_id,
    variantText: row.variant_text,
    similarity: row.similarity,
    judge: row.judge,
    rationale: row.rationale,
    ticket: { id: row.ticket_row_id, ticketId: row.ticket_id ?? null },
    createdAt: new Date(row.created_at).toISOString(),
    reviewedBy: row.reviewed_by,
    reviewedAt: row.reviewed_at === null ? null : new Date(row.reviewed_at).toISOString(),
    rejectReason: row.reject_reason,
    resultFaqId: row.result_faq_id,
  };
}

const SELECT = "SELECT s.*, t.ticket_id FROM staging_items s LEFT JOIN tickets t ON t.id = s.ticket_row_id";

export async function listStaging(
  db: D1Database,
  tenantId: string,
  args: { status: StagingStatus; limit: number; before?: number | undefined },
): Promise<{ rows: (StagingRow & { ticket_id: string | null })[]; nextCursor: number | null }> {
  const { results } = await db
    .prepare(`${SELECT} WHERE s.tenant_id = ? AND s.status = ? AND s.seq < ? ORDER BY s.seq DESC LIMIT ?`)
    .bind(tenantId, args.status, args.before ?? Number.MAX_SAFE_INTEGER, args.limit + 1)
    .all<StagingRow & { ticket_id: string | null }>();
  const rows = results.slice(0, args.limit);
  return { rows, nextCursor: results.length > args.limit ? (rows[rows.length - 1]?.seq ?? null) : null };
}

export async function getStaging(db: D1Database, tenantId: string, id: string) {
  return db.prepare(`${SELECT} WHERE s.id = ? AND s.tenant_id = ?`).bind(id, tenantId).first<StagingRow & { ticket_id: string | null }>();
}

export type ReviewResult = Result<StagingRow & { ticket_id: string | null }, "not_found" | "already_reviewed" | "faq_gone">;

/** Takes the item out of `pending` (only one reviewer wins); null when it is not pending. */
async function claim(services: Services, tenantId: string, id: string, status: "approved" | "rejected", by: string, reason: string | null) {
  return services.db
    .prepare(
      "UPDATE staging_items SET status = ?, reviewed_by = ?, reviewed_at = ?, reject_reason = ? WHERE id = ? AND tenant_id = ? AND status = 'pending' RETURNING *",
    )
    .bind(status, by, services.clock.now(), reason, id, tenantId)
    .first<StagingRow>();
}

async function missOrConflict(db: D1Database, tenantId: string, id: string): Promise<ReviewResult> {
  return err((await getStaging(db, tenantId, id)) ? "already_reviewed" : "not_found");
}

export async function approveStaging(
  services: Services,
  tenantId: string,
  id: string,
  by: string,
  edits: { question?: string | undefined; answer?: string | undefined },
): Promise<ReviewResult> {
  const { db } = services;
  const item = await claim(services, tenantId, id, "approved", by, null);
  if (!item) return missOrConflict(db, tenantId, id);
  const ticket = await db.prepare("SELECT ticket_id FROM tickets WHERE id = ?").bind(item.ticket_row_id).first<{ ticket_id: string }>();
  try {
    let faqId: string;
    let variantId: string | null = null;
    if (item.action === "NEW") {
      const row = await faqStore(services).create(tenantId, by, {
        question: edits.question ?? item.question,
        answer: edits.answer ?? item.answer,
        tags: toFaqTags(JSON.parse(item.tags) as string[]),
        metadata: { source: "pipeline", stagingId: item.id, sourceTicketId: ticket?.ticket_id ?? null },
      });
      faqId = row.id;
    } else {
      const updated = await faqStore(services).update(
        tenantId,
        item.faq_id!,
        by,
        { answer: edits.answer ?? item.answer, ...(edits.question ? { question: edits.question } : {}) },
        { changeType: "update", reason: `pipeline merge (staging ${item.id}, ticket ${ticket?.ticket_id ?? item.ticket_row_id})` },
      );
      if (!updated.ok) {
        await db
          .prepare("UPDATE staging_items SET status = 'pending', reviewed_by = NULL, reviewed_at = NULL WHERE id = ?")
          .bind(item.id)
          .run();
        return err("faq_gone");
      }
      faqId = updated.value.row.id;
      if (item.variant_text) {
        const added = await faqStore(services).addVariant(tenantId, faqId, by, {
          variantText: item.variant_text,
          source: "pipeline",
          sourceTicketId: ticket?.ticket_id,
        });
        if (added.ok) variantId = added.value.id;
      }
    }
    await db.batch([
      db.prepare("UPDATE staging_items SET result_faq_id = ? WHERE id = ?").bind(faqId, item.id),
      db.prepare("UPDATE tickets SET variant_id = COALESCE(?, variant_id) WHERE id = ?").bind(variantId, item.ticket_row_id),
    ]);
  } catch (error) {
    // Not applied: the item goes back to pending so the review can be repeated.
    await db
      .prepare("UPDATE staging_items SET status = 'pending', reviewed_by = NULL, reviewed_at = NULL WHERE id = ? AND result_faq_id IS NULL")
      .bind(item.id)
      .run();
    throw error;
  }
  return ok((await getStaging(db, tenantId, id))!);
}

export async function rejectStaging(services: Services, tenantId: string, id: string, by: string, reason: string): Promise<ReviewResult> {
  const item = await claim(services, tenantId, id, "rejected", by, reason);
  if (!item) return missOrConflict(services.db, tenantId, id);
  return ok((await getStaging(services.db, tenantId, id))!);
}
