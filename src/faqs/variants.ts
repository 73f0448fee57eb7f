/** Question variants (seed 002 §7.2.2): other phrasings of an FAQ's question, 1:N, each with its own full-text row and vector. */
import type { VariantCounts } from "./port";
import type { FaqVariantSource, IndexState } from "../db/schema";
import { newId } from "../ids";
import type { Services } from "../services";
import { ftsDocument } from "../text/fts";
import { FAQ_VARIANT_COLLECTION, indexVariants } from "./indexing";
import { foldText, getFaqRow } from "./store";
import { selectByIds } from "../db/by-ids";
import { errorFields } from "../log";
import { err, ok, type Result } from "../result";

/** Most variants one FAQ may have. */
export const MAX_VARIANTS_PER_FAQ = 200;

export interface NewVariant {
  variantText: string;
  source: FaqVariantSource;
  sourceTicketId?: string | undefined;
}

export interface VariantRow {
  seq: number;
  id: string;
  tenant_id: string;
  faq_id: string;
  variant_text: string;
  normalized_text: string;
  source: FaqVariantSource;
  source_ticket_id: string | null;
  created_by: string;
  created_at: number;
  index_state: IndexState;
}

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

/** Insert statements for a variant and its full-text row; the insert is skipped on a duplicate (unique index). */
export function insertVariantStatements(db: D1Database, row: VariantRow): D1PreparedStatement[] {
  return [
    db
      .prepare(
        `INSERT INTO faq_variants (id, tenant_id, faq_id, variant_text, normalized_text, source, source_ticket_id, created_by, created_at, index_state)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`,
      )
      .bind(
        row.id,
        row.tenant_id,
        row.faq_id,
        row.variant_text,
        row.normalized_text,
        row.source,
        row.source_ticket_id,
        row.created_by,
        row.created_at,
        row.index_state,
      ),
    db
      .prepare("INSERT INTO faq_variants_fts (rowid, body) SELECT seq, ? FROM faq_variants WHERE id = ?")
      .bind(ftsDocument(row.variant_text), row.id),
  ];
}

export type AddVariantResult = Result<VariantRow, "not_found" | "duplicate" | "too_many">;

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
  const count = await db
    .prepare("SELECT COUNT(*) AS n FROM faq_variants WHERE tenant_id = ? AND faq_id = ?")
    .bind(tenantId, faqId)
    .first<{ n: number }>();
  if ((count?.n ?? 0) >= MAX_VARIANTS_PER_FAQ) return err("too_many");
  const [inserted] = await db.batch(insertVariantStatements(db, row));
  if ((inserted?.meta.changes ?? 0) === 0) return err("duplicate");
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
  const { results } = await db
    .prepare(`SELECT ${VARIANT_COLUMNS} FROM faq_variants WHERE tenant_id = ?1 AND faq_id = ?2 AND seq > ?3 ORDER BY seq LIMIT ?4`)
    .bind(tenantId, faqId, page.afterSeq ?? 0, page.limit)
    .all<VariantRow>();
  return results;
}

/** The variants of these FAQs, oldest first (a handful of FAQs: one bound parameter each). */
export async function variantsOfFaqs(db: D1Database, tenantId: string, faqIds: readonly string[]): Promise<VariantRow[]> {
  if (faqIds.length === 0) return [];
  const { results } = await db
    .prepare(
      `SELECT ${VARIANT_COLUMNS} FROM faq_variants WHERE tenant_id = ? AND faq_id IN (${faqIds.map(() => "?").join(",")}) ORDER BY seq`,
    )
    .bind(tenantId, ...faqIds)
    .all<VariantRow>();
  return results;
}

/** Live FAQs and their variants, counted. */
export async function countVariants(db: D1Database, tenantId: string): Promise<VariantCounts> {
  const row = await db
    .prepare(
      `SELECT (SELECT COUNT(*) FROM faqs WHERE tenant_id = ?1 AND deleted_at IS NULL) AS faqs,
              COUNT(v.id) AS variants, COALESCE(SUM(v.source = 'pipeline'), 0) AS pipelineVariants,
              COUNT(DISTINCT v.faq_id) AS faqsWithVariants, COALESCE(MAX(per.n), 0) AS maxPerFaq
       FROM faq_variants v JOIN faqs f ON f.id = v.faq_id AND f.deleted_at IS NULL
       LEFT JOIN (SELECT faq_id, COUNT(*) AS n FROM faq_variants WHERE tenant_id = ?1 GROUP BY faq_id) per ON per.faq_id = v.faq_id
       WHERE v.tenant_id = ?1`,
    )
    .bind(tenantId)
    .first<VariantCounts>();
  return row ?? { faqs: 0, variants: 0, pipelineVariants: 0, faqsWithVariants: 0, maxPerFaq: 0 };
}

/** Variants by id within one tenant, keyed by id. */
export function getVariantsByIds(db: D1Database, tenantId: string, ids: readonly string[]): Promise<Map<string, VariantRow>> {
  return selectByIds<VariantRow>(db, { from: "faq_variants", columns: VARIANT_COLUMNS }, tenantId, ids);
}

/** Deletes a variant of a live FAQ (row, full-text row, vector); false when the tenant has no such variant. */
export async function deleteVariant(services: Services, tenantId: string, variantId: string): Promise<boolean> {
  const { db, vectors } = services;
  const live =
    "SELECT v.seq FROM faq_variants v JOIN faqs f ON f.id = v.faq_id WHERE v.id = ? AND v.tenant_id = ? AND f.deleted_at IS NULL";
  const [, removed] = await db.batch([
    db.prepare(`DELETE FROM faq_variants_fts WHERE rowid = (${live})`).bind(variantId, tenantId),
    db.prepare(`DELETE FROM faq_variants WHERE seq = (${live})`).bind(variantId, tenantId),
  ]);
  if ((removed?.meta.changes ?? 0) === 0) return false;
  await vectors.delete(tenantId, FAQ_VARIANT_COLLECTION, [variantId]).catch((error) => {
    services.log.warn("vector_delete_failed", { id: variantId, ...errorFields(error) });
  });
  return true;
}
