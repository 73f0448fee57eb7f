import { faqStore } from "../faqs/select";
import type { Services } from "../../platform/ports/services";
import { countUploadedPairs } from "./uploaded";

/** The labels a tenant holds that a fit reads: FAQ variants (approved MERGE items among them) and uploaded pairs. */
export async function labelCount(services: Services, tenantId: string): Promise<number> {
  const [counts, uploaded] = await Promise.all([faqStore(services).variantCounts(tenantId), countUploadedPairs(services.home, tenantId)]);
  return counts.variants + uploaded;
}
