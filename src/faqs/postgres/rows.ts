/**
 * Postgres rows → the port's row shapes. JSON columns are parsed by schema here, at the
 * boundary: a row whose tags or metadata are not what the API wrote fails loudly, not later.
 */
import { pgFaqs, pgFaqVariants, type PgFaq, type PgFaqVariant, type PgFaqVersion } from "../../db/pg/schema";
import { metadataSchema, tagsSchema } from "../json-columns";
import type { FaqRow } from "../store";
import type { VariantRow } from "../variants";
import type { FaqVersion } from "../versions";

/** The columns a FaqRow needs (never the vector or the tsvector). */
export const faqColumns = {
  seq: pgFaqs.seq,
  id: pgFaqs.id,
  tenantId: pgFaqs.tenantId,
  question: pgFaqs.question,
  answer: pgFaqs.answer,
  tags: pgFaqs.tags,
  metadata: pgFaqs.metadata,
  version: pgFaqs.version,
  createdBy: pgFaqs.createdBy,
  createdAt: pgFaqs.createdAt,
  updatedBy: pgFaqs.updatedBy,
  updatedAt: pgFaqs.updatedAt,
  deletedAt: pgFaqs.deletedAt,
  indexState: pgFaqs.indexState,
};
export type PgFaqFields = Pick<PgFaq, keyof typeof faqColumns>;

export const variantColumns = {
  seq: pgFaqVariants.seq,
  id: pgFaqVariants.id,
  tenantId: pgFaqVariants.tenantId,
  faqId: pgFaqVariants.faqId,
  variantText: pgFaqVariants.variantText,
  normalizedText: pgFaqVariants.normalizedText,
  source: pgFaqVariants.source,
  sourceTicketId: pgFaqVariants.sourceTicketId,
  createdBy: pgFaqVariants.createdBy,
  createdAt: pgFaqVariants.createdAt,
  indexState: pgFaqVariants.indexState,
};
export type PgVariantFields = Pick<PgFaqVariant, keyof typeof variantColumns>;

export function toFaqRow(r: PgFaqFields): FaqRow {
  return {
    seq: r.seq,
    id: r.id,
    tenant_id: r.tenantId,
    question: r.question,
    answer: r.answer,
    tags: JSON.stringify(tagsSchema.parse(r.tags)),
    metadata: JSON.stringify(metadataSchema.parse(r.metadata)),
    version: r.version,
    created_by: r.createdBy,
    created_at: r.createdAt,
    updated_by: r.updatedBy,
    updated_at: r.updatedAt,
    deleted_at: r.deletedAt,
    index_state: r.indexState,
  };
}

export function toVariantRow(r: PgVariantFields): VariantRow {
  return {
    seq: r.seq,
    id: r.id,
    tenant_id: r.tenantId,
    faq_id: r.faqId,
    variant_text: r.variantText,
    normalized_text: r.normalizedText,
    source: r.source,
    source_ticket_id: r.sourceTicketId,
    created_by: r.createdBy,
    created_at: r.createdAt,
    index_state: r.indexState,
  };
}

export function toFaqVersion(r: PgFaqVersion): FaqVersion {
  return {
    versionNumber: r.versionNumber,
    question: r.question,
    answer: r.answer,
    tags: tagsSchema.parse(r.tags),
    changeType: r.changeType,
    changeReason: r.changeReason,
    changedBy: r.changedBy,
    changedAt: new Date(r.changedAt).toISOString(),
  };
}
