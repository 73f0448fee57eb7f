/** A re-embed's FAQ share on D1 (src/features/upkeep/reembed.ts has the why; Postgres: postgres/reembed.ts). */
import { faqs, faqVariants } from "../../platform/db/schema";
import { markForReembedD1 } from "../indexing/mark-reembed";
import type { Services } from "../../platform/ports/services";
import { FAQ_COLLECTION, FAQ_VARIANT_COLLECTION } from "./indexing";
import type { ReembedMarked } from "./port";

export async function markFaqsForReembedD1(services: Services, tenantId: string, model: string): Promise<ReembedMarked> {
  return {
    faqs: await markForReembedD1(services, tenantId, model, faqs, FAQ_COLLECTION),
    faq_variants: await markForReembedD1(services, tenantId, model, faqVariants, FAQ_VARIANT_COLLECTION),
  };
}
