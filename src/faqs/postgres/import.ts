/**
 * Bulk import on Postgres: the same report as on D1 (src/faqs/import.ts), the same rows
 * (importRows: ids, versions and authorship kept from an export). Texts are embedded
 * IMPORT_EMBED_BATCH per embedder call before each chunk is written; each chunk of
 * IMPORT_WRITE_CHUNK FAQs is one transaction. A failed embedding leaves its rows 'pending'.
 */
import { inArray } from "drizzle-orm";
import type { PgDatabase } from "../../db/pg/client";
import { pgFaqs, pgFaqVariants, pgFaqVersions } from "../../db/pg/schema";
import type { Services } from "../../services";
import { IMPORT_EMBED_BATCH, IMPORT_WRITE_CHUNK, importRows, type ImportRows, newImportReport, withFreeIds } from "../import";
import type { ImportItem, ImportReport } from "../types";
import { embedAll } from "./embed";
import { faqValues, variantValues } from "./rows";

/** Rows per INSERT statement. */
const INSERT_ROWS = 25;

function chunks<T>(rows: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < rows.length; i += size) out.push(rows.slice(i, i + size));
  return out;
}

export async function importIntoPostgres(
  services: Services,
  db: PgDatabase,
  tenantId: string,
  by: string,
  items: readonly ImportItem[],
): Promise<ImportReport> {
  const report = newImportReport();
  const model = services.embedder.model;
  const free = await withFreeIds(items, (ids) => takenIds(db, ids), report);
  for (let i = 0; i < free.length; i += IMPORT_WRITE_CHUNK) {
    const lines: ImportRows[] = [];
    for (const item of free.slice(i, i + IMPORT_WRITE_CHUNK)) {
      const rows = importRows(services, tenantId, by, item, report);
      lines.push(rows);
      report.imported.push({ line: item.line, id: rows.faq.id, variants: rows.variants.length });
    }
    const faqs = lines.map((l) => l.faq);
    const variants = lines.flatMap((l) => l.variants);
    const pending = [
      ...faqs.filter((f) => f.index_state === "pending").map((f) => ({ row: f, text: f.question })),
      ...variants.filter((v) => v.index_state === "pending").map((v) => ({ row: v, text: v.variant_text })),
    ];
    const vectors = new Map<string, number[]>();
    for (let j = 0; j < pending.length; j += IMPORT_EMBED_BATCH) {
      const batch = pending.slice(j, j + IMPORT_EMBED_BATCH);
      const embedded = await embedAll(
        services,
        batch.map((p) => p.text),
      );
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
    const versions = lines.flatMap((l) => l.versions.map((v) => ({ ...v, tenantId, faqId: l.faq.id })));
    await db.transaction(async (tx) => {
      // Statements of INSERT_ROWS rows: each stays well inside the query timeout while the HNSW indexes take the vectors.
      for (const part of chunks(faqs, INSERT_ROWS))
        await tx.insert(pgFaqs).values(part.map((f) => ({ ...faqValues(f), ...withVector(f.id) })));
      for (const part of chunks(variants, INSERT_ROWS))
        await tx
          .insert(pgFaqVariants)
          .values(part.map((v) => ({ ...variantValues(v), ...withVector(v.id) })))
          .onConflictDoNothing();
      for (const part of chunks(versions, INSERT_ROWS)) await tx.insert(pgFaqVersions).values(part).onConflictDoNothing();
    });
  }
  return report;
}

/** Ids already used by an FAQ or a variant of any tenant. */
async function takenIds(db: PgDatabase, ids: string[]): Promise<Set<string>> {
  const [faqs, variants] = await Promise.all([
    db.select({ id: pgFaqs.id }).from(pgFaqs).where(inArray(pgFaqs.id, ids)),
    db.select({ id: pgFaqVariants.id }).from(pgFaqVariants).where(inArray(pgFaqVariants.id, ids)),
  ]);
  return new Set([...faqs, ...variants].map((r) => r.id));
}
