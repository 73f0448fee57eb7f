/**
 * Bulk import: many FAQs (with their variants) in one request. Rows are written in D1 batches of
 * IMPORT_WRITE_CHUNK FAQs (each batch a transaction), then embedded IMPORT_EMBED_BATCH texts per
 * embedder call. A line that fails validation is reported and skipped; the good lines are kept.
 * Auto-related links are not computed on import (they are on each later create or question change).
 */
import type { Services } from "../services";
import { indexFaqs, indexVariants } from "./indexing";
import { type FaqRow, foldText, insertFaqStatements, type NewFaq, newFaqRow } from "./store";
import { insertVariantStatements, MAX_VARIANTS_PER_FAQ, newVariantRow, type VariantRow } from "./variants";

/** Most lines one import request may carry. */
export const MAX_IMPORT_LINES = 1000;
/** Texts per embedder call. */
export const IMPORT_EMBED_BATCH = 64;
/** FAQs per D1 batch (each FAQ is 2 statements, each variant 2 more). */
export const IMPORT_WRITE_CHUNK = 50;

export interface ImportItem extends NewFaq {
  line: number;
  variants: string[];
}

export interface ImportReport {
  imported: { line: number; id: string; variants: number }[];
  /** Variants dropped as exact duplicates (folded) of their FAQ's question or of another variant. */
  duplicateVariants: number;
  indexed: number;
  pendingIndex: number;
}

export async function importFaqs(services: Services, tenantId: string, by: string, items: readonly ImportItem[]): Promise<ImportReport> {
  const { db } = services;
  const report: ImportReport = { imported: [], duplicateVariants: 0, indexed: 0, pendingIndex: 0 };
  const faqRows: FaqRow[] = [];
  const variantRows: VariantRow[] = [];
  for (let i = 0; i < items.length; i += IMPORT_WRITE_CHUNK) {
    const statements: D1PreparedStatement[] = [];
    for (const item of items.slice(i, i + IMPORT_WRITE_CHUNK)) {
      const row = newFaqRow(services, tenantId, by, item);
      statements.push(...insertFaqStatements(db, row));
      const seen = new Set([foldText(item.question)]);
      let kept = 0;
      for (const text of item.variants.slice(0, MAX_VARIANTS_PER_FAQ)) {
        const variant = newVariantRow(services, tenantId, row.id, by, { variantText: text, source: "manual" });
        if (seen.has(variant.normalized_text)) {
          report.duplicateVariants++;
          continue;
        }
        seen.add(variant.normalized_text);
        statements.push(...insertVariantStatements(db, variant));
        variantRows.push(variant);
        kept++;
      }
      faqRows.push(row);
      report.imported.push({ line: item.line, id: row.id, variants: kept });
    }
    await db.batch(statements);
  }
  const pendingFaqs = faqRows.filter((r) => r.index_state === "pending");
  const pendingVariants = variantRows.filter((r) => r.index_state === "pending");
  for (let i = 0; i < pendingFaqs.length; i += IMPORT_EMBED_BATCH) count(report, await indexFaqs(services, pendingFaqs.slice(i, i + IMPORT_EMBED_BATCH)));
  for (let i = 0; i < pendingVariants.length; i += IMPORT_EMBED_BATCH) count(report, await indexVariants(services, pendingVariants.slice(i, i + IMPORT_EMBED_BATCH)));
  return report;
}

function count(report: ImportReport, states: readonly string[]): void {
  for (const s of states) {
    if (s === "indexed") report.indexed++;
    else report.pendingIndex++;
  }
}
