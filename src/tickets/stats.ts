/**
 * Pipeline stats (GET /v1/pipeline/stats): decisions by action and UTC day, ticket and staging
 * states, variants per FAQ, and the duplicate-creation rate proxy: of the FAQs created by
 * approving a NEW item, how many are now ≥ SIMILARITY_VARIANT (calibrated) similar to another
 * live FAQ's question, i.e. the pipeline (or its reviewer) made a second FAQ for a question
 * the knowledge base already answered.
 */
import { calibrate } from "../calibration/calibration";
import { FAQ_COLLECTION } from "../faqs/indexing";
import type { Services } from "../services";
import { SIMILARITY_VARIANT } from "./decide";

/** Newest approved NEW items the duplicate proxy re-checks (one embedding call, one index query each). */
export const DUPLICATE_PROXY_SAMPLE = 100;

export async function pipelineStats(services: Services, tenantId: string, days: number) {
  const { db, clock } = services;
  const since = clock.now() - days * 86_400_000;
  const [byDay, tickets, staging, variants] = await db.batch([
    db
      .prepare(
        `SELECT date(decided_at / 1000, 'unixepoch') AS day, action, COUNT(*) AS n FROM tickets
         WHERE tenant_id = ? AND status = 'decided' AND decided_at >= ? GROUP BY day, action ORDER BY day, action`,
      )
      .bind(tenantId, since),
    db.prepare("SELECT status, COUNT(*) AS n FROM tickets WHERE tenant_id = ? GROUP BY status").bind(tenantId),
    db.prepare("SELECT action, status, COUNT(*) AS n FROM staging_items WHERE tenant_id = ? GROUP BY action, status").bind(tenantId),
    db
      .prepare(
        `SELECT (SELECT COUNT(*) FROM faqs WHERE tenant_id = ?1 AND deleted_at IS NULL) AS faqs,
                COUNT(v.id) AS variants, COALESCE(SUM(v.source = 'pipeline'), 0) AS pipeline_variants,
                COUNT(DISTINCT v.faq_id) AS faqs_with_variants, COALESCE(MAX(per.n), 0) AS max_per_faq
         FROM faq_variants v JOIN faqs f ON f.id = v.faq_id AND f.deleted_at IS NULL
         LEFT JOIN (SELECT faq_id, COUNT(*) AS n FROM faq_variants WHERE tenant_id = ?1 GROUP BY faq_id) per ON per.faq_id = v.faq_id
         WHERE v.tenant_id = ?1`,
      )
      .bind(tenantId),
  ]);
  const byAction: Record<string, number> = { SKIP: 0, ADD_VARIANT: 0, MERGE: 0, NEW: 0 };
  const days_: Record<string, Record<string, number>> = {};
  for (const r of byDay!.results as { day: string; action: string; n: number }[]) {
    byAction[r.action] = (byAction[r.action] ?? 0) + r.n;
    (days_[r.day] ??= {})[r.action] = r.n;
  }
  const v = (variants!.results[0] ?? {}) as {
    faqs: number;
    variants: number;
    pipeline_variants: number;
    faqs_with_variants: number;
    max_per_faq: number;
  };
  return {
    days,
    byAction,
    byDay: Object.entries(days_).map(([day, actions]) => ({ day, ...actions })),
    tickets: Object.fromEntries((tickets!.results as { status: string; n: number }[]).map((r) => [r.status, r.n])),
    staging: (staging!.results as { action: string; status: string; n: number }[]).map((r) => ({
      action: r.action,
      status: r.status,
      count: r.n,
    })),
    variantsPerFaq: {
      faqs: v.faqs ?? 0,
      variants: v.variants ?? 0,
      pipelineVariants: v.pipeline_variants ?? 0,
      mean: v.faqs ? (v.variants ?? 0) / v.faqs : 0,
      max: v.max_per_faq ?? 0,
    },
    duplicateCreation: await duplicateProxy(services, tenantId),
  };
}

async function duplicateProxy(services: Services, tenantId: string) {
  const { db, embedder, vectors } = services;
  const { results } = await db
    .prepare(
      `SELECT f.id, f.question FROM staging_items s JOIN faqs f ON f.id = s.result_faq_id AND f.deleted_at IS NULL
       WHERE s.tenant_id = ? AND s.action = 'NEW' AND s.status = 'approved' ORDER BY s.seq DESC LIMIT ?`,
    )
    .bind(tenantId, DUPLICATE_PROXY_SAMPLE)
    .all<{ id: string; question: string }>();
  const checkable = results.filter((r) => embedder.canEmbed(r.question));
  if (checkable.length === 0)
    return { created: results.length, checked: 0, likelyDuplicates: 0, rate: null, threshold: SIMILARITY_VARIANT };
  try {
    const embedded = await embedder.embed(checkable.map((r) => r.question));
    let duplicates = 0;
    for (const [i, row] of checkable.entries()) {
      const near = await vectors.query(tenantId, FAQ_COLLECTION, { vector: embedded[i]!, model: embedder.model, topK: 2 });
      const other = near.find((m) => m.id !== row.id);
      if (other && calibrate(other.score, embedder.calibration) >= SIMILARITY_VARIANT) duplicates++;
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
