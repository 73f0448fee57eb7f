/**
 * Bulk import: many FAQs (with their variants) in one request, line by line: a line that cannot be
 * written is reported with its line number and skipped, every other line is stored, and the report
 * names exactly the lines stored. Rows are written in D1 batches of IMPORT_WRITE_CHUNK FAQs (each
 * batch a transaction), then embedded IMPORT_EMBED_BATCH texts per embedder call.
 * Auto-related links are not computed on import (they are on each later create or question change).
 * A line from GET /v1/faqs/export keeps its ids, version, authorship, times and versions
 * (src/features/faqs/transfer.ts). Ids are unique across tenants (one index per table), so a kept id some
 * row already uses cannot be written: the line is skipped with the same answer whoever uses the id
 * (this tenant or another), so the answer never tells that another tenant holds it.
 */
import { inArray } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { drizzle } from "drizzle-orm/d1";
import { faqs as faqsTable, faqVariants, faqVersions } from "../../platform/db/schema";
import { ID_CHUNK } from "../../platform/db/by-ids";
import { ConstraintViolation } from "../../platform/db/errors";
import type { Services } from "../../platform/ports/services";
import { indexFaqs, indexVariants } from "./indexing";
import { foldText, insertFaqQueries, newFaqRow } from "./store";
import type { FaqRow, ImportItem, ImportReport, ImportVersion, VariantRow } from "./types";
import { insertVariantQueries, MAX_VARIANTS_PER_FAQ, newVariantRow } from "./variants";

/** Most lines one import request may carry. */
export const MAX_IMPORT_LINES = 1000;
/** Texts per embedder call. */
export const IMPORT_EMBED_BATCH = 64;
/** FAQs per D1 batch (each FAQ is 2 statements, each variant 2 more). */
export const IMPORT_WRITE_CHUNK = 50;

/** The rows one line becomes, before any write (both backends). */
export interface ImportRows {
  line: number;
  faq: FaqRow;
  variants: VariantRow[];
  versions: ImportVersion[];
  /** The ids the line keeps from an export (named when a unique index refuses the line at write time). */
  kept: string[];
  /** Variants dropped as exact duplicates (folded), counted in the report only if the line is written. */
  duplicateVariants: number;
}

export function importRows(services: Services, tenantId: string, by: string, item: ImportItem): ImportRows {
  const fresh = newFaqRow(services, tenantId, by, item);
  const faq: FaqRow = {
    ...fresh,
    id: item.id ?? fresh.id,
    version: item.version ?? 1,
    created_by: item.createdBy ?? by,
    created_at: item.createdAt ?? fresh.created_at,
    updated_by: item.updatedBy ?? by,
    updated_at: item.updatedAt ?? fresh.updated_at,
  };
  const seen = new Set([foldText(item.question)]);
  const variants: VariantRow[] = [];
  let duplicateVariants = 0;
  for (const given of item.variants.slice(0, MAX_VARIANTS_PER_FAQ)) {
    const v = typeof given === "string" ? { variantText: given } : given;
    const made = newVariantRow(services, tenantId, faq.id, v.createdBy ?? by, {
      variantText: v.variantText,
      source: v.source ?? "manual",
      sourceTicketId: v.sourceTicketId ?? undefined,
    });
    const variant: VariantRow = { ...made, id: v.id ?? made.id, created_at: v.createdAt ?? made.created_at };
    if (seen.has(variant.normalized_text)) {
      duplicateVariants++;
      continue;
    }
    seen.add(variant.normalized_text);
    variants.push(variant);
  }
  return { line: item.line, faq, variants, versions: item.versions ?? [], kept: keptIds(item), duplicateVariants };
}

/** The ids a line keeps from an export (checked against every tenant's rows before writing). */
export const keptIds = (item: ImportItem): string[] => [
  ...(item.id ? [item.id] : []),
  ...item.variants.flatMap((v) => (typeof v !== "string" && v.id ? [v.id] : [])),
];

export function newImportReport(): ImportReport {
  return { imported: [], skipped: [], duplicateVariants: 0, indexed: 0, pendingIndex: 0 };
}

/** The one answer for a kept id a row already uses: the same whichever tenant's row it is. */
const unavailable = (line: number, ids: readonly string[]) => ({
  line,
  code: "ID_UNAVAILABLE" as const,
  message: `The id ${ids.join(" or ")} cannot be used; this line was not imported (drop the id to import it under a new one)`,
});

/**
 * The lines whose kept ids can be written; the others are reported as skipped: an id that an
 * earlier line of the file (or the same line) already keeps, and an id some stored row uses.
 */
export async function usableLines(
  items: readonly ImportItem[],
  taken: (ids: string[]) => Promise<Set<string>>,
  report: ImportReport,
): Promise<ImportItem[]> {
  const keptBy = new Map<string, number>();
  const unrepeated = items.filter((item) => {
    const ids = keptIds(item);
    const repeated = ids.find((id, i) => keptBy.has(id) || ids.indexOf(id) !== i);
    if (repeated !== undefined) {
      const first = keptBy.get(repeated) ?? item.line;
      report.skipped.push({
        line: item.line,
        code: "ID_REPEATED",
        message: `The id ${repeated} is already kept by line ${first} of this import; this line was not imported`,
      });
      return false;
    }
    for (const id of ids) keptBy.set(id, item.line);
    return true;
  });
  const wanted = unrepeated.flatMap(keptIds);
  const used = wanted.length > 0 ? await taken(wanted) : new Set<string>();
  return unrepeated.filter((item) => {
    const clash = keptIds(item).find((id) => used.has(id));
    if (clash !== undefined) report.skipped.push(unavailable(item.line, [clash]));
    return clash === undefined;
  });
}

/**
 * Writes one chunk of lines in one transaction. When a unique index refuses it (a concurrent write
 * took a kept id after usableLines looked), each line is written alone, so that one line's conflict
 * does not take the others down; a line still refused is skipped. Returns the lines written, each
 * already in the report.
 */
export async function writeChunk<L extends ImportRows>(
  lines: readonly L[],
  write: (lines: readonly L[]) => Promise<void>,
  isConflict: (error: unknown) => boolean,
  report: ImportReport,
): Promise<L[]> {
  const written: L[] = [];
  try {
    await write(lines);
    written.push(...lines);
  } catch (error) {
    if (!isConflict(error)) throw error;
    for (const line of lines) {
      try {
        await write([line]);
        written.push(line);
      } catch (alone) {
        // A line that keeps no id cannot lose one to another write: its conflict is a fault, not a line error.
        if (!isConflict(alone) || line.kept.length === 0) throw alone;
        report.skipped.push(unavailable(line.line, line.kept));
      }
    }
  }
  for (const { line, faq, variants, duplicateVariants } of written) {
    report.imported.push({ line, id: faq.id, variants: variants.length });
    report.duplicateVariants += duplicateVariants;
  }
  return written;
}

export async function importFaqs(services: Services, tenantId: string, by: string, items: readonly ImportItem[]): Promise<ImportReport> {
  const { db } = services;
  const report = newImportReport();
  const faqRows: FaqRow[] = [];
  const variantRows: VariantRow[] = [];
  const usable = await usableLines(items, (ids) => takenIds(db, ids), report);
  const orm = drizzle(db);
  const write = async (lines: readonly ImportRows[]) => {
    const queries: BatchItem<"sqlite">[] = [];
    for (const { faq, variants, versions } of lines) {
      queries.push(...insertFaqQueries(orm, faq));
      for (const variant of variants) queries.push(...insertVariantQueries(orm, variant));
      for (const version of versions)
        queries.push(
          orm
            .insert(faqVersions)
            .values({ ...version, tenantId, faqId: faq.id })
            .onConflictDoNothing(),
        );
    }
    // One batch: one transaction.
    const [first, ...rest] = queries;
    if (first) await orm.batch([first, ...rest]);
  };
  for (let i = 0; i < usable.length; i += IMPORT_WRITE_CHUNK) {
    const lines = usable.slice(i, i + IMPORT_WRITE_CHUNK).map((item) => importRows(services, tenantId, by, item));
    for (const { faq, variants } of await writeChunk(lines, write, (e) => e instanceof ConstraintViolation, report)) {
      faqRows.push(faq);
      variantRows.push(...variants);
    }
  }
  const pendingFaqs = faqRows.filter((r) => r.index_state === "pending");
  const pendingVariants = variantRows.filter((r) => r.index_state === "pending");
  for (let i = 0; i < pendingFaqs.length; i += IMPORT_EMBED_BATCH)
    count(report, await indexFaqs(services, pendingFaqs.slice(i, i + IMPORT_EMBED_BATCH)));
  for (let i = 0; i < pendingVariants.length; i += IMPORT_EMBED_BATCH)
    count(report, await indexVariants(services, pendingVariants.slice(i, i + IMPORT_EMBED_BATCH)));
  return report;
}

/** Ids already used by an FAQ or a variant of any tenant. */
async function takenIds(db: D1Database, ids: readonly string[]): Promise<Set<string>> {
  const orm = drizzle(db);
  const taken = new Set<string>();
  for (let i = 0; i < ids.length; i += ID_CHUNK) {
    const chunk = ids.slice(i, i + ID_CHUNK);
    const [faqs, variants] = await Promise.all([
      orm.select({ id: faqsTable.id }).from(faqsTable).where(inArray(faqsTable.id, chunk)),
      orm.select({ id: faqVariants.id }).from(faqVariants).where(inArray(faqVariants.id, chunk)),
    ]);
    for (const row of [...faqs, ...variants]) taken.add(row.id);
  }
  return taken;
}

function count(report: ImportReport, states: readonly string[]): void {
  for (const s of states) {
    if (s === "indexed") report.indexed++;
    else report.pendingIndex++;
  }
}
