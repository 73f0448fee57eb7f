/** Question variants (seed 002 §7.2.2): other phrasings of an FAQ's question, 1:N, each with its own full-text row and vector. */
import { and, asc, count, eq, gt, inArray, isNull, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { drizzle, type DrizzleD1Database } from "drizzle-orm/d1";
import type { VariantCounts } from "./port";
import { faqVariantsFts } from "../../platform/db/fts-tables";
import { type FaqVariantSource, faqHits, faqs, faqVariants, type IndexState } from "../../platform/db/schema";
import { newId } from "../../core/base/ids";
import type { Services } from "../../platform/ports/services";
import { ftsDocument } from "../../core/text/fts";
import { FAQ_VARIANT_COLLECTION, indexVariants } from "./indexing";
import { foldText, getFaqRow } from "./store";
import { toVariantRow, variantFields, variantValues } from "./rows";
import { errorFields } from "../../platform/observe/log";
import { err, ok } from "../../core/base/result";
import type { AddVariantResult, NewVariant, VariantRow } from "./types";

/** Most variants one FAQ may have. */
export const MAX_VARIANTS_PER_FAQ = 200;

/** The columns of a VariantRow in SQL (the raw FTS5 search, src/features/faqs/search.ts, reads them by name). */
export const VARIANT_COLUMNS =
  "seq, id, tenant_id, faq_id, variant_text, normalized_text, source, source_ticket_id, created_by, created_at, index_state";

export interface Variant {
  id: string;
  faqId: string;
  variantText: string;
  source: FaqVariantSource;
  sourceTicketId: string | null;
  createdBy: string;
  createdAt: string;
  indexState: IndexState;
}

export function toVariant(row: VariantRow): Variant {
  return {
    id: row.id,
    faqId: row.faq_id,
    variantText: row.variant_text,
    source: row.source,
    sourceTicketId: row.source_ticket_id,
    createdBy: row.created_by,
    createdAt: new Date(row.created_at).toISOString(),
    indexState: row.index_state,
  };
}

export function newVariantRow(services: Services, tenantId: string, faqId: string, by: string, input: NewVariant): VariantRow {
  return {
    seq: 0,
    id: newId("fv"),
    tenant_id: tenantId,
    faq_id: faqId,
    variant_text: input.variantText,
    normalized_text: foldText(input.variantText),
    source: input.source,
    source_ticket_id: input.sourceTicketId ?? null,
    created_by: by,
    created_at: services.clock.now(),
    index_state: services.embedder.canEmbed(input.variantText) ? "pending" : "lexical_only",
  };
}

/** Insert queries for a variant and its full-text row; the insert is skipped on a duplicate (unique index). */
export function insertVariantQueries(orm: DrizzleD1Database, row: VariantRow): [BatchItem<"sqlite">, BatchItem<"sqlite">] {
  return [
    orm.insert(faqVariants).values(variantValues(row)).onConflictDoNothing(),
    // The full-text row's rowid is the variant's seq (no row when the insert was skipped: nothing inserted).
    orm.insert(faqVariantsFts).select(
      orm
        .select({ rowid: faqVariants.seq, body: sql<string>`${ftsDocument(row.variant_text)}`.as("body") })
        .from(faqVariants)
        .where(eq(faqVariants.id, row.id)),
    ),
  ];
}

/** Adds a variant to a live FAQ. An exact duplicate (folded) of its question or of another variant is refused. */
export async function addVariant(
  services: Services,
  tenantId: string,
  faqId: string,
  by: string,
  input: NewVariant,
): Promise<AddVariantResult> {
  const { db } = services;
  const faq = await getFaqRow(db, tenantId, faqId);
  if (!faq) return err("not_found");
  const row = newVariantRow(services, tenantId, faqId, by, input);
  if (row.normalized_text === foldText(faq.question)) return err("duplicate");
  const orm = drizzle(db);
  const existing = await orm.$count(faqVariants, and(eq(faqVariants.tenantId, tenantId), eq(faqVariants.faqId, faqId)));
  if (existing >= MAX_VARIANTS_PER_FAQ) return err("too_many");
  const [insert, fts] = insertVariantQueries(orm, row);
  const [inserted] = await orm.batch([insert, fts]);
  if ((inserted.meta.changes ?? 0) === 0) return err("duplicate");
  if (row.index_state === "pending") {
    const [state] = await indexVariants(services, [row]);
    row.index_state = state ?? "pending";
  }
  return ok(row);
}

export async function listVariants(
  db: D1Database,
  tenantId: string,
  faqId: string,
  page: { limit: number; afterSeq?: number | undefined } = { limit: -1 },
): Promise<VariantRow[]> {
  // Oldest first; LIMIT -1 is all (the FAQ's own answer embeds every variant).
  const rows = await drizzle(db)
    .select(variantFields)
    .from(faqVariants)
    .where(and(eq(faqVariants.tenantId, tenantId), eq(faqVariants.faqId, faqId), gt(faqVariants.seq, page.afterSeq ?? 0)))
    .orderBy(asc(faqVariants.seq))
    .limit(page.limit);
  return rows.map(toVariantRow);
}

/** The variants of these FAQs, oldest first (a handful of FAQs: one bound parameter each). */
export async function variantsOfFaqs(db: D1Database, tenantId: string, faqIds: readonly string[]): Promise<VariantRow[]> {
  if (faqIds.length === 0) return [];
  const rows = await drizzle(db)
    .select(variantFields)
    .from(faqVariants)
    .where(and(eq(faqVariants.tenantId, tenantId), inArray(faqVariants.faqId, [...faqIds])))
    .orderBy(asc(faqVariants.seq));
  return rows.map(toVariantRow);
}

/** Live FAQs and their variants, counted. */
export async function countVariants(db: D1Database, tenantId: string): Promise<VariantCounts> {
  const orm = drizzle(db);
  const perFaq = orm
    .select({
      n: count().as("n"),
      pipeline: sql<number>`sum(${faqVariants.source} = 'pipeline')`.as("pipeline"),
    })
    .from(faqVariants)
    .innerJoin(faqs, and(eq(faqs.id, faqVariants.faqId), isNull(faqs.deletedAt)))
    .where(eq(faqVariants.tenantId, tenantId))
    .groupBy(faqVariants.faqId)
    .as("per_faq");
  const [row] = await orm
    .select({
      faqs: orm.$count(faqs, and(eq(faqs.tenantId, tenantId), isNull(faqs.deletedAt))),
      variants: sql<number>`coalesce(sum(${perFaq.n}), 0)`,
      pipelineVariants: sql<number>`coalesce(sum(${perFaq.pipeline}), 0)`,
      faqsWithVariants: count(),
      maxPerFaq: sql<number>`coalesce(max(${perFaq.n}), 0)`,
    })
    .from(perFaq);
  return row ?? { faqs: 0, variants: 0, pipelineVariants: 0, faqsWithVariants: 0, maxPerFaq: 0 };
}

/** Deletes a variant of a live FAQ (row, full-text row, vector); false when the tenant has no such variant. */
export async function deleteVariant(services: Services, tenantId: string, variantId: string): Promise<boolean> {
  const { db, vectors } = services;
  const orm = drizzle(db);
  const liveVariantSeq = orm
    .select({ seq: faqVariants.seq })
    .from(faqVariants)
    .innerJoin(faqs, eq(faqs.id, faqVariants.faqId))
    .where(and(eq(faqVariants.id, variantId), eq(faqVariants.tenantId, tenantId), isNull(faqs.deletedAt)));
  const liveVariantFaq = orm.select({ faqId: faqVariants.faqId }).from(faqVariants).where(inArray(faqVariants.seq, liveVariantSeq));
  const [, , removed] = await orm.batch([
    // The full-text row and the hits go first, while the variant still names its seq and FAQ.
    orm.delete(faqVariantsFts).where(inArray(faqVariantsFts.rowid, liveVariantSeq)),
    // Its hits still count for the FAQ; they no longer name a variant that is gone.
    orm
      .update(faqHits)
      .set({ variantId: null })
      .where(and(eq(faqHits.tenantId, tenantId), inArray(faqHits.faqId, liveVariantFaq), eq(faqHits.variantId, variantId))),
    orm.delete(faqVariants).where(inArray(faqVariants.seq, liveVariantSeq)).returning({ id: faqVariants.id }),
  ]);
  if (removed.length === 0) return false;
  await vectors.delete(tenantId, FAQ_VARIANT_COLLECTION, [variantId]).catch((error) => {
    services.log.warn("vector_delete_failed", { id: variantId, ...errorFields(error) });
  });
  return true;
}
