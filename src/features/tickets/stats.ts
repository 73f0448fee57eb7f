/**
 * Pipeline stats (GET /v1/pipeline/stats): decisions by action and UTC day, ticket and staging
 * states, variants per FAQ, and the duplicate-creation rate proxy: of the FAQs created by
 * approving a NEW item, how many are now ≥ SIMILARITY_VARIANT (calibrated) similar to another
 * live FAQ's question, i.e. the pipeline (or its reviewer) made a second FAQ for a question
 * the knowledge base already answered.
 */
import { calibrate } from "../../core/calibration/calibration";
import { likelyDuplicateFaqs } from "../faqs/duplicates";
import { faqStore } from "../faqs/select";
import type { Services } from "../../platform/ports/services";
import { SIMILARITY_VARIANT } from "./decide";
import { pipelineStore } from "./select";

/** Newest approved NEW items the duplicate proxy re-checks (one embedding call, one index query each). */
export const DUPLICATE_PROXY_SAMPLE = 100;

export async function pipelineStats(services: Services, tenantId: string, days: number) {
  const since = services.clock.now() - days * 86_400_000;
  const [counts, v] = await Promise.all([
    pipelineStore(services).counts(tenantId, since),
    // The FAQs live where the FAQ store keeps them (D1 or Postgres): counted through its port.
    faqStore(services).variantCounts(tenantId),
  ]);
  const byAction: Record<string, number> = { SKIP: 0, ADD_VARIANT: 0, MERGE: 0, NEW: 0 };
  const days_: Record<string, Record<string, number>> = {};
  for (const r of counts.decisionsByDay) {
    byAction[r.action] = (byAction[r.action] ?? 0) + r.n;
    (days_[r.day] ??= {})[r.action] = r.n;
  }
  return {
    days,
    byAction,
    // Object.assign keeps the actions in the answer's type (a spread would drop them from it).
    byDay: Object.entries(days_).map(([day, actions]) => Object.assign({ day }, actions)),
    tickets: Object.fromEntries(counts.ticketsByStatus.map((r) => [r.status, r.n])),
    staging: counts.stagingByActionStatus.map((r) => ({
      action: r.action,
      status: r.status,
      count: r.n,
    })),
    variantsPerFaq: {
      faqs: v.faqs,
      variants: v.variants,
      pipelineVariants: v.pipelineVariants,
      mean: v.faqs ? v.variants / v.faqs : 0,
      max: v.maxPerFaq,
    },
    duplicateCreation: await duplicateProxy(services, tenantId),
    // Every live FAQ, not only those the pipeline made: a duplicate made by hand or by import counts too.
    duplicates: await likelyDuplicateFaqs(services, tenantId),
  };
}

async function duplicateProxy(services: Services, tenantId: string) {
  const { embedder } = services;
  const store = faqStore(services);
  const approved = await pipelineStore(services).approvedNewFaqIds(tenantId, DUPLICATE_PROXY_SAMPLE);
  const live = await store.getMany(tenantId, approved);
  const results = approved.flatMap((id) => {
    const faq = live.get(id);
    return faq ? [{ id: faq.id, question: faq.question }] : [];
  });
  const checkable = results.filter((r) => embedder.canEmbed(r.question));
  if (checkable.length === 0)
    return { created: results.length, checked: 0, likelyDuplicates: 0, rate: null, threshold: SIMILARITY_VARIANT };
  try {
    const embedded = await embedder.embed(checkable.map((r) => r.question));
    let duplicates = 0;
    for (const [i, row] of checkable.entries()) {
      const near = await store.nearest(tenantId, { vector: embedded[i]!, model: embedder.model }, 2);
      const other = near.find((m) => m.id !== row.id);
      if (other && calibrate(other.score, embedder.scale.calibration) >= SIMILARITY_VARIANT) duplicates++;
    }
    return {
      created: results.length,
      checked: checkable.length,
      likelyDuplicates: duplicates,
      rate: duplicates / checkable.length,
      threshold: SIMILARITY_VARIANT,
    };
  } catch (error) {
    return {
      created: results.length,
      checked: 0,
      likelyDuplicates: null,
      rate: null,
      threshold: SIMILARITY_VARIANT,
      degraded: `embeddings or vector index: ${String(error)}`,
    };
  }
}
