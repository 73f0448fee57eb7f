/**
 * Stored rows → the port's row shapes (FaqRow, VariantRow, FaqVersion), for both backends. The
 * fields are the schema's own (`$inferSelect`); the JSON columns arrive untrusted and are parsed
 * by schema here, at the boundary: a row whose tags or metadata are not what the API wrote fails
 * loudly, not later. The D1 queries select the columns below; Postgres has the same names.
 */
import { faqs, faqVariants, type faqVersions } from "../../platform/db/schema";
import { metadataSchema, tagsSchema } from "./json-columns";
import type { FaqRow, FaqVersion, VariantRow } from "./types";

/** The D1 columns a FaqRow needs. */
export const faqFields = {
  seq: faqs.seq,
  id: faqs.id,
  tenantId: faqs.tenantId,
  question: faqs.question,
  answer: faqs.answer,
  tags: faqs.tags,
  metadata: faqs.metadata,
  version: faqs.version,
  createdBy: faqs.createdBy,
  createdAt: faqs.createdAt,
  updatedBy: faqs.updatedBy,
  updatedAt: faqs.updatedAt,
  deletedAt: faqs.deletedAt,
  indexState: faqs.indexState,
};

/** The D1 columns a VariantRow needs. */
export const variantFields = {
  seq: faqVariants.seq,
  id: faqVariants.id,
  tenantId: faqVariants.tenantId,
  faqId: faqVariants.faqId,
  variantText: faqVariants.variantText,
  normalizedText: faqVariants.normalizedText,
  source: faqVariants.source,
  sourceTicketId: faqVariants.sourceTicketId,
  createdBy: faqVariants.createdBy,
  createdAt: faqVariants.createdAt,
  indexState: faqVariants.indexState,
};

/** JSON columns as they leave a driver: not yet checked. */
type Untrusted<Row, Json extends keyof Row> = Omit<Row, Json> & { [K in Json]: unknown };

export type FaqFields = Untrusted<Pick<typeof faqs.$inferSelect, keyof typeof faqFields>, "tags" | "metadata">;
export type VariantFields = Pick<typeof faqVariants.$inferSelect, keyof typeof variantFields>;
export type VersionFields = Untrusted<Omit<typeof faqVersions.$inferSelect, "id" | "tenantId" | "faqId">, "tags">;

export function toFaqRow(r: FaqFields): FaqRow {
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

export function toVariantRow(r: VariantFields): VariantRow {
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

export function toFaqVersion(r: VersionFields): FaqVersion {
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

/** A FaqRow as insert values (no seq: the database assigns it); its JSON text parsed by schema. */
export function faqValues(row: FaqRow) {
  return {
    id: row.id,
    tenantId: row.tenant_id,
    question: row.question,
    answer: row.answer,
    tags: tagsSchema.parse(JSON.parse(row.tags)),
    metadata: metadataSchema.parse(JSON.parse(row.metadata)),
    version: row.version,
    createdBy: row.created_by,
    createdAt: row.created_at,
    updatedBy: row.updated_by,
    updatedAt: row.updated_at,
    deletedAt: row.deleted_at,
    indexState: row.index_state,
  };
}

/** A VariantRow as insert values (no seq). */
export function variantValues(row: VariantRow) {
  return {
    id: row.id,
    tenantId: row.tenant_id,
    faqId: row.faq_id,
    variantText: row.variant_text,
    normalizedText: row.normalized_text,
    source: row.source,
    sourceTicketId: row.source_ticket_id,
    createdBy: row.created_by,
    createdAt: row.created_at,
    indexState: row.index_state,
  };
}
