/**
 * The Postgres columns of the port's row shapes; the mapping to them (JSON columns parsed by
 * schema at the boundary) is the D1 one, src/features/faqs/rows.ts: the fields have the same names. The
 * insert values are D1's plus the terms the generated tsvectors are made of.
 */
import { pgFaqs, pgFaqVariants, type PgFaq, type PgFaqVariant } from "../../../platform/db/pg/schema";
import { ftsDocument } from "../../../core/text/fts";
import { faqValues as faqRowValues, variantValues as variantRowValues } from "../rows";
import type { FaqRow, VariantRow } from "../types";

export { toFaqRow, toFaqVersion, toVariantRow } from "../rows";

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

/** The insert values of an FAQ (without its vector), with the terms its generated tsvector is made of. */
export function faqValues(row: FaqRow) {
  return { ...faqRowValues(row), questionTerms: ftsDocument(row.question), answerTerms: ftsDocument(row.answer) };
}

export function variantValues(row: VariantRow) {
  return { ...variantRowValues(row), bodyTerms: ftsDocument(row.variant_text) };
}
