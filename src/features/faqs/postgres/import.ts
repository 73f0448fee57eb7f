/**
 * Bulk import on Postgres: the same report as on D1 (src/features/faqs/import.ts), the same rows
 * (importRows: ids, versions and authorship kept from an export) and the same line-by-line rule
 * (usableLines, writeChunk). Texts are embedded IMPORT_EMBED_BATCH per embedder call before each
 * chunk is written; each chunk of IMPORT_WRITE_CHUNK FAQs is one transaction. A failed embedding
 * leaves its rows 'pending'.
 */
import { inArray } from "drizzle-orm";
import type { PgDatabase } from "../../../platform/db/pg/client";
import { pgFaqs, pgFaqVariants, pgFaqVersions } from "../../../platform/db/pg/schema";
import type { Services } from "../../../platform/ports/services";
import { IMPORT_EMBED_BATCH, IMPORT_WRITE_CHUNK, importRows, type ImportRows, newImportReport, usableLines, writeChunk } from "../import";
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

/** A unique index refused the write (SQLSTATE 23505), wherever the driver put the code in the chain. */
function isUniqueViolation(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++)
    if ((e as { code?: unknown }).code === "23505") return true;
  return false;
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
  const usable = await usableLines(items, (ids) => takenIds(db, ids), report);
  for (let i = 0; i < usable.length; i += IMPORT_WRITE_CHUNK) {
    const lines: ImportRows[] = usable.slice(i, i + IMPORT_WRITE_CHUNK).map((item) => importRows(services, tenantId, by, item));
    const pending = [
      ...lines.flatMap((l) => (l.faq.index_state === "pending" ? [{ row: l.faq, text: l.faq.question }] : [])),
      ...lines.flatMap((l) => l.variants.filter((v) => v.index_state === "pending").map((v) => ({ row: v, text: v.variant_text }))),
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
        }
      });
    }
    const withVector = (id: string) => ({ embedding: vectors.get(id) ?? null, embeddingModel: vectors.has(id) ? model : null });
    const write = (part: readonly ImportRows[]) =>
      db.transaction(async (tx) => {
        const faqs = part.map((l) => l.faq);
        const variants = part.flatMap((l) => l.variants);
        const versions = part.flatMap((l) => l.versions.map((v) => ({ ...v, tenantId, faqId: l.faq.id })));
        // Statements of INSERT_ROWS rows: each stays well inside the query timeout while the HNSW indexes take the vectors.
        for (const rows of chunks(faqs, INSERT_ROWS))
          await tx.insert(pgFaqs).values(rows.map((f) => ({ ...faqValues(f), ...withVector(f.id) })));
        for (const rows of chunks(variants, INSERT_ROWS))
          await tx
            .insert(pgFaqVariants)
            .values(rows.map((v) => ({ ...variantValues(v), ...withVector(v.id) })))
            .onConflictDoNothing();
        for (const rows of chunks(versions, INSERT_ROWS)) await tx.insert(pgFaqVersions).values(rows).onConflictDoNothing();
      });
    const written = await writeChunk(lines, write, isUniqueViolation, report);
    // Counted over the rows written: a line skipped by writeChunk stored no vector.
    const pendingIds = new Set(pending.map((p) => p.row.id));
    for (const id of written.flatMap((l) => [l.faq.id, ...l.variants.map((v) => v.id)]).filter((id) => pendingIds.has(id))) {
      if (vectors.has(id)) report.indexed++;
      else report.pendingIndex++;
    }
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
