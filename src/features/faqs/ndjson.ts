/**
 * The functions behind GET /v1/faqs/export and POST /v1/faqs/import: the lines of transfer.ts,
 * through the store that serves the tenant (select.ts). Not in transfer.ts: both adapters import
 * its mapping, and select.ts imports the adapters.
 */
import type { Services } from "../../platform/ports/services";
import { type DuplicateLine, duplicateLines } from "./import-duplicates";
import { linkImported } from "./import-links";
import { faqStore } from "./select";
import type { ImportedRelationship, ImportItem, ImportReport } from "./types";

/** The tenant's knowledge base as NDJSON (GET /v1/faqs/export). */
export async function exportNdjson(services: Services, tenantId: string): Promise<string> {
  const lines = await faqStore(services).export(tenantId);
  return lines.map((line) => `${JSON.stringify(line)}\n`).join("");
}

export interface TransferItem extends ImportItem {
  related?: Omit<ImportedRelationship, "sourceFaqId">[] | undefined;
}

export interface ImportOutcome extends ImportReport {
  relationships: number;
  /** Lines skipped because the question is asked already (import-duplicates.ts). */
  duplicates: DuplicateLine[];
  /** Imported FAQs that got automatic related links. */
  autoLinked: number;
  /** "duplicate_check": the knowledge base could not be compared (embedder or index down); the file's own lines were. */
  degraded: "duplicate_check"[];
}

/**
 * Imports validated lines (POST /v1/faqs/import): lines asking a question already asked are
 * skipped, the others written; then the links the lines carry, and automatic links for the rest.
 */
export async function importLines(
  services: Services,
  tenantId: string,
  by: string,
  items: readonly TransferItem[],
): Promise<ImportOutcome> {
  const store = faqStore(services);
  const { keep, duplicates, checked } = await duplicateLines(services, store, tenantId, items);
  const report = await store.import(tenantId, by, keep);
  const importedIds = new Set(report.imported.map((i) => i.id));
  const links = keep.flatMap((item) => (item.id ? (item.related ?? []).map((r) => ({ ...r, sourceFaqId: item.id! })) : []));
  const relationships = await store.restoreRelationships(tenantId, importedIds, links);
  const byLine = new Map(keep.map((item) => [item.line, item]));
  const unlinked = report.imported.flatMap(({ line, id }) => {
    const item = byLine.get(line);
    return item && item.related === undefined ? [{ id, question: item.question }] : [];
  });
  const autoLinked = await linkImported(store, tenantId, by, unlinked);
  return { ...report, relationships, duplicates, autoLinked, degraded: checked ? [] : ["duplicate_check"] };
}
