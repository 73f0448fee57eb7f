/**
 * Bulk import on Postgres: the same report as on D1 (src/faqs/import.ts). Texts are embedded
 * IMPORT_EMBED_BATCH per embedder call before each chunk is written; each chunk of
 * IMPORT_WRITE_CHUNK FAQs is one transaction. A failed embedding leaves its rows 'pending'.
 */
import type { PgDatabase } from "../../db/pg/client";
import { pgFaqs, pgFaqVariants } from "../../db/pg/schema";
import type { Services } from "../../services";
import { IMPORT_EMBED_BATCH, IMPORT_WRITE_CHUNK, type ImportItem, type ImportReport } from "../import";
import { type FaqRow, foldText, newFaqRow } from "../store";
import { MAX_VARIANTS_PER_FAQ, newVariantRow, type VariantRow } from "../variants";
import { embedAll, faqValues, variantValues } from "./store";

export async function importIntoPostgres(services: Services, db: PgDatabase, tenantId: string, by: string, items: readonly ImportItem[]): Promise<ImportReport> {
  const report: ImportReport = { imported: [], duplicateVariants: 0, indexed: 0, pendingIndex: 0 };
  const model = services.embedder.model;
  for (let i = 0; i < items.length; i += IMPORT_WRITE_CHUNK) {
    const faqs: FaqRow[] = [];
    const variants: VariantRow[] = [];
    for (const item of items.slice(i, i + IMPORT_WRITE_CHUNK)) {
      const row = newFaqRow(services, tenantId, by, item);
      faqs.push(row);
      const seen = new Set([foldText(item.question)]);
      let kept = 0;
      for (const text of item.variants.slice(0, MAX_VARIANTS_PER_FAQ)) {
        const variant = newVariantRow(services, tenantId, row.id, by, { variantText: text, source: "manual" });
        if (seen.has(variant.normalized_text)) {
          report.duplicateVariants++;
          continue;
        }
        seen.add(variant.normalized_text);
        variants.push(variant);
        kept++;
      }
      report.imported.push({ line: item.line, id: row.id, variants: kept });
    }
    const pending = [...faqs.filter((f) => f.index_state === "pending").map((f) => ({ row: f, text: f.question })), ...variants.filter((v) => v.index_state === "pending").map((v) => ({ row: v, text: v.variant_text }))];
    const vectors = new Map<string, number[]>();
    for (let j = 0; j < pending.length; j += IMPORT_EMBED_BATCH) {
      const batch = pending.slice(j, j + IMPORT_EMBED_BATCH);
      const embedded = await embedAll(services, batch.map((p) => p.text));
      batch.forEach((p, k) => {
        const vector = embedded?.[k];
        if (vector) {
          vectors.set(p.row.id, vector);
          p.row.index_state = "indexed";
          report.indexed++;
        } else report.pendingIndex++;
      });
    }
    const withVector = (id: string) => ({ embedding: vectors.get(id) ?? null, embeddingModel: vectors.has(id) ? model : null });
    await db.transaction(async (tx) => {
      if (faqs.length > 0) await tx.insert(pgFaqs).values(faqs.map((f) => ({ ...faqValues(f), ...withVector(f.id) })));
      if (variants.length > 0) await tx.insert(pgFaqVariants).values(variants.map((v) => ({ ...variantValues(v), ...withVector(v.id) }))).onConflictDoNothing();
    });
  }
  return report;
}
