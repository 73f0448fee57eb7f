/**
 * Automatic related links for the FAQs an import wrote, as a create computes them for one FAQ
 * (relationships.ts: its nearest live FAQs at calibrated similarity ≥ 0.60). After every line is
 * written and indexed, so the FAQs of one file find each other too. A line from an export that
 * carries its own links (`related`) keeps them as exported and gets none computed.
 */
import type { FaqStore, ReindexReport } from "./port";

/** FAQs linked at once: each is one embedding (cached) and one index query, then one write. */
export const LINK_CONCURRENCY = 8;

/** Who the links of a late-indexed FAQ are by. */
const REINDEX_AUTHOR = "cron:reindex";

/** The FAQs the cron indexed late (written while the embedder was down) get the links their create could not compute. */
export async function linkReindexed(store: FaqStore, faqs: ReindexReport["faqs"]): Promise<number> {
  const byTenant = new Map<string, ReindexReport["faqs"]>();
  for (const faq of faqs) byTenant.set(faq.tenantId, [...(byTenant.get(faq.tenantId) ?? []), faq]);
  let linked = 0;
  for (const [tenantId, ofTenant] of byTenant) linked += await linkImported(store, tenantId, REINDEX_AUTHOR, ofTenant);
  return linked;
}

/** Returns how many FAQs got at least one automatic link. */
export async function linkImported(
  store: FaqStore,
  tenantId: string,
  by: string,
  faqs: readonly { id: string; question: string }[],
): Promise<number> {
  let linked = 0;
  for (let i = 0; i < faqs.length; i += LINK_CONCURRENCY) {
    const written = await Promise.all(
      faqs.slice(i, i + LINK_CONCURRENCY).map((faq) => store.refreshAutoRelated(tenantId, faq.id, faq.question, by)),
    );
    linked += written.filter((n) => n !== null && n > 0).length;
  }
  return linked;
}
