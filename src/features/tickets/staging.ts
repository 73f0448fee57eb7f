/**
 * Staging: MERGE and NEW proposals wait here for a person (seed 002 §6.1). Approving applies them
 * through the FAQ module (NEW creates the FAQ; MERGE updates it, versioned, and adds the ticket's
 * question as a `pipeline` variant); an item is approved or rejected once (a second time: conflict).
 * A NEW item is decided again before it is approved (redecide.ts): an FAQ added since it was
 * staged may ask its question now. The items live behind the pipeline store port (port.ts), with the FAQs they change.
 */
import type { StagingStatus } from "../../platform/db/schema";
import { faqStore } from "../faqs/select";
import type { Services } from "../../platform/ports/services";
import { toFaqTags } from "../faqs/tags";
import { err, ok, type Result } from "../../core/base/result";
import type { PipelineStore, StagingView } from "./port";
import { askedBy, type Redecision, redecide } from "./redecide";
import { pipelineStore } from "./select";

export function toStaging(row: StagingView) {
  return {
    id: row.id,
    action: row.action,
    status: row.status,
    question: row.question,
    answer: row.answer,
    tags: row.tags,
    faqId: row.faqId,
    variantText: row.variantText,
    similarity: row.similarity,
    judge: row.judge,
    rationale: row.rationale,
    ticket: { id: row.ticketRowId, ticketId: row.externalTicketId },
    createdAt: new Date(row.createdAt).toISOString(),
    reviewedBy: row.reviewedBy,
    reviewedAt: row.reviewedAt === null ? null : new Date(row.reviewedAt).toISOString(),
    rejectReason: row.rejectReason,
    resultFaqId: row.resultFaqId,
  };
}

export function listStaging(
  services: Services,
  tenantId: string,
  args: { status: StagingStatus; limit: number; before?: number | undefined },
) {
  return pipelineStore(services).listStaging(tenantId, args);
}

export function getStaging(services: Services, tenantId: string, id: string) {
  return pipelineStore(services).getStaging(tenantId, id);
}

export function stagingCounts(services: Services, tenantId: string) {
  return pipelineStore(services).stagingCounts(tenantId);
}

/** GET /v1/staging/:id/decision: the item as staged beside the decision the pipeline would make now, with its evidence. */
export function toDecision(row: StagingView, now: Redecision) {
  const { match, sameQuestion } = now;
  return {
    stagingId: row.id,
    question: askedBy(row),
    staged: { action: row.action, faqId: row.faqId, similarity: row.similarity, stagedAt: new Date(row.createdAt).toISOString() },
    match: match && {
      faqId: match.faq.id,
      question: match.faq.question,
      variant: match.variant,
      similarity: Number(match.similarity.toFixed(4)),
      method: match.method,
      faqUpdatedAt: new Date(match.faq.updated_at).toISOString(),
      // Created or edited after the item was staged: the knowledge base changed under it.
      changedSinceStaged: match.faq.updated_at > row.createdAt,
    },
    band: now.band,
    sameQuestion: sameQuestion && {
      relation: sameQuestion.relation,
      confidence: sameQuestion.confidence,
      reason: sameQuestion.reason,
      evidence: {
        ...sameQuestion.evidence,
        score: Number(sameQuestion.evidence.score.toFixed(4)),
        sharedWords: Number(sameQuestion.evidence.sharedWords.toFixed(4)),
      },
    },
    actions: now.actions,
    stale: now.stale,
    duplicate: now.duplicate,
  };
}

/** The live FAQ that already asks a NEW item's question (redecide.ts): approving the item would duplicate it. */
export interface DuplicateFaq {
  id: string;
  question: string;
  /** Calibrated similarity of the item's question to the FAQ's question or variant. */
  similarity: number;
}

export type ReviewResult = Result<StagingView, "not_found" | "already_reviewed" | "faq_gone" | { duplicateOf: DuplicateFaq }>;

async function missOrConflict(store: PipelineStore, tenantId: string, id: string): Promise<ReviewResult> {
  return err((await store.getStaging(tenantId, id)) ? "already_reviewed" : "not_found");
}

export async function approveStaging(
  services: Services,
  tenantId: string,
  id: string,
  by: string,
  edits: { question?: string | undefined; answer?: string | undefined; allowDuplicate?: boolean | undefined },
): Promise<ReviewResult> {
  const store = pipelineStore(services);
  // The knowledge base may have changed since the item was staged: a NEW item is decided again
  // first, and refused when an FAQ now asks its question (unless the reviewer says to go ahead).
  if (!edits.allowDuplicate) {
    const staged = await store.getStaging(tenantId, id);
    if (staged?.status === "pending" && staged.action === "NEW") {
      const now = await redecide(services, tenantId, edits.question ?? staged.question, staged);
      if (now.duplicate && now.match)
        return err({ duplicateOf: { id: now.match.faq.id, question: now.match.faq.question, similarity: now.match.similarity } });
    }
  }
  const item = await store.claimStaging(tenantId, id, { status: "approved", by, at: services.clock.now(), rejectReason: null });
  if (!item) return missOrConflict(store, tenantId, id);
  const sourceTicketId = (await store.getTicket(tenantId, item.ticketRowId))?.ticketId ?? null;
  let faqId: string;
  // An FAQ whose question is new links to its neighbours, as one created through the API does.
  let linkQuestion: string | null = null;
  try {
    let variantId: string | null = null;
    if (item.action === "NEW") {
      const row = await faqStore(services).create(tenantId, by, {
        question: edits.question ?? item.question,
        answer: edits.answer ?? item.answer,
        tags: toFaqTags(item.tags),
        metadata: { source: "pipeline", stagingId: item.id, sourceTicketId },
      });
      faqId = row.id;
      if (row.index_state === "indexed") linkQuestion = row.question;
    } else {
      const updated = await faqStore(services).update(
        tenantId,
        item.faqId!,
        by,
        { answer: edits.answer ?? item.answer, ...(edits.question ? { question: edits.question } : {}) },
        { changeType: "update", reason: `pipeline merge (staging ${item.id}, ticket ${sourceTicketId ?? item.ticketRowId})` },
      );
      if (!updated.ok) {
        await store.reopenStaging(tenantId, item.id);
        return err("faq_gone");
      }
      faqId = updated.value.row.id;
      if (edits.question && updated.value.row.index_state === "indexed") linkQuestion = updated.value.row.question;
      if (item.variantText) {
        const added = await faqStore(services).addVariant(tenantId, faqId, by, {
          variantText: item.variantText,
          source: "pipeline",
          sourceTicketId: sourceTicketId ?? undefined,
        });
        if (added.ok) variantId = added.value.id;
      }
    }
    await store.recordApproval(item, faqId, variantId);
  } catch (error) {
    // Not applied: the item goes back to pending so the review can be repeated.
    await store.reopenStaging(tenantId, item.id).catch(() => {});
    throw error;
  }
  if (linkQuestion) await faqStore(services).refreshAutoRelated(tenantId, faqId, linkQuestion, by);
  return ok((await store.getStaging(tenantId, id))!);
}

export async function rejectStaging(services: Services, tenantId: string, id: string, by: string, reason: string): Promise<ReviewResult> {
  const store = pipelineStore(services);
  const item = await store.claimStaging(tenantId, id, { status: "rejected", by, at: services.clock.now(), rejectReason: reason });
  if (!item) return missOrConflict(store, tenantId, id);
  return ok((await store.getStaging(tenantId, id))!);
}
