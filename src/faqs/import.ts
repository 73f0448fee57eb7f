/**
 * Bulk import: many FAQs (with their variants) in one request. Rows are written in D1 batches of
 * IMPORT_WRITE_CHUNK FAQs (each batch a transaction), then embedded IMPORT_EMBED_BATCH texts per
 * embedder call. A line that fails validation is reported and skipped; the good lines are kept.
 * Auto-related links are not computed on import (they are on each later create or question change).
 * A line from GET /v1/faqs/export keeps its ids, version, authorship, times and versions
 * (src/faqs/transfer.ts); an id already taken (by any tenant) skips the line.
 */
import { inArray } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { drizzle } from "drizzle-orm/d1";
import { faqs as faqsTable, faqVariants, faqVersions } from "../db/schema";
import { ID_CHUNK } from "../db/by-ids";
import type { Services } from "../services";
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
  faq: FaqRow;
  variants: VariantRow[];
  versions: ImportVersion[];
}

export function importRows(services: Services, tenantId: string, by: string, item: ImportItem, report: ImportReport): ImportRows {
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
  for (const given of item.variants.slice(0, MAX_VARIANTS_PER_FAQ)) {
    const v = typeof given === "string" ? { variantText: given } : given;
    const made = newVariantRow(services, tenantId, faq.id, v.createdBy ?? by, {
      variantText: v.variantText,
      source: v.source ?? "manual",
      sourceTicketId: v.sourceTicketId ?? undefined,
    });
    const variant: VariantRow = { ...made, id: v.id ?? made.id, created_at: v.createdAt ?? made.created_at };
    if (seen.has(variant.normalized_text)) {
      report.duplicateVariants++;
      continue;
    }
    seen.add(variant.normalized_text);
    variants.push(variant);
  }
  return { faq, variants, versions: item.versions ?? [] };
}

/** The ids a line keeps from an export (checked against every tenant's rows before writing). */
export const keptIds = (item: ImportItem): string[] => [
  ...(item.id ? [item.id] : []),
  ...item.variants.flatMap((v) => (typeof v !== "string" && v.id ? [v.id] : [])),
];

export function newImportReport(): ImportReport {
  return { imported: [], skipped: [], duplicateVariants: 0, indexed: 0, pendingIndex: 0 };
}

/** Splits the lines whose kept ids are free from those whose ids are taken (reported as skipped). */
export async function withFreeIds(
  items: readonly ImportItem[],
  taken: (ids: string[]) => Promise<Set<string>>,
  report: ImportReport,
): Promise<ImportItem[]> {
  const wanted = items.flatMap(keptIds);
  const used = wanted.length > 0 ? await taken(wanted) : new Set<string>();
  return items.filter((item) => {
    const clash = keptIds(item).find((id) => used.has(id));
    if (clash)
      report.skipped.push({ line: item.line, code: "ID_TAKEN", message: `The id ${clash} is already taken; this line was not imported` });
    return !clash;
  });
}

export async function importFaqs(services: Services, tenantId: string, by: string, items: readonly ImportItem[]): Promise<ImportReport> {
  const { db } = services;
  const report = newImportReport();
  const faqRows: FaqRow[] = [];
  const variantRows: VariantRow[] = [];
  const free = await withFreeIds(items, (ids) => takenIds(db, ids), report);
  const orm = drizzle(db);
  for (let i = 0; i < free.length; i += IMPORT_WRITE_CHUNK) {
    const queries: BatchItem<"sqlite">[] = [];
    for (const item of free.slice(i, i + IMPORT_WRITE_CHUNK)) {
      const { faq, variants, versions } = importRows(services, tenantId, by, item, report);
      queries.push(...insertFaqQueries(orm, faq));
      for (const variant of variants) queries.push(...insertVariantQueries(orm, variant));
      for (const version of versions)
        queries.push(
          orm
            .insert(faqVersions)
            .values({ ...version, tenantId, faqId: faq.id })
            .onConflictDoNothing(),
        );
      variantRows.push(...variants);
      faqRows.push(faq);
      report.imported.push({ line: item.line, id: faq.id, variants: variants.length });
    }
    // One batch per chunk: each is one transaction.
    const [first, ...rest] = queries;
    if (first) await orm.batch([first, ...rest]);
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
