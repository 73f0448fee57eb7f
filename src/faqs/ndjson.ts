/**
 * The functions behind GET /v1/faqs/export and POST /v1/faqs/import: the lines of transfer.ts,
 * through the store that serves the tenant (select.ts). Not in transfer.ts: both adapters import
 * its mapping, and select.ts imports the adapters.
 */
import type { Services } from "../services";
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

/** Imports validated lines (POST /v1/faqs/import), then the links between the FAQs it wrote. */
export async function importLines(
  services: Services,
  tenantId: string,
  by: string,
  items: readonly TransferItem[],
): Promise<ImportReport & { relationships: number }> {
  const store = faqStore(services);
  const report = await store.import(tenantId, by, items);
  const importedIds = new Set(report.imported.map((i) => i.id));
  const links = items.flatMap((item) => (item.id ? (item.related ?? []).map((r) => ({ ...r, sourceFaqId: item.id! })) : []));
  return { ...report, relationships: await store.restoreRelationships(tenantId, importedIds, links) };
}
