/**
 * Suggestions (active learning, after QnA Maker): a search whose top two FAQs are both relevant
 * (calibrated similarity ≥ SUGGESTION_MIN_SIMILARITY) and within SUGGESTION_MARGIN of each other
 * was ambiguous, so its query is a candidate alternate phrasing of the top FAQ. Queries cluster
 * by (top FAQ, sorted content words of the query): "reset password how" and "how to reset my
 * password?" are one cluster. An admin accepts a cluster (its first query becomes a variant,
 * source "suggestion") or dismisses it. The margin compares calibrated similarity, not the RRF
 * score: RRF is rank-based and flat (rank 1 vs 2 in all four lists differ by 1.6 %).
 */
import { expandQuery } from "../text/expand";
import { newId } from "../ids";
import type { Services } from "../services";
import type { FaqSearchHit } from "./search";
import { foldText } from "./store";
import { samplesSchema } from "./json-columns";
import type { FaqStore, SuggestionOverride } from "./port";
import { faqStore } from "./select";
import type { AddVariantResult } from "./variants";
import { err, ok, type Result } from "../result";

export const SUGGESTION_MARGIN = 0.05;
export const SUGGESTION_MIN_SIMILARITY = 0.6;
/** Distinct phrasings a cluster keeps as samples. */
export const MAX_SAMPLES = 5;

/** The cluster a search's query belongs to, or null when the search was not ambiguous. */
export function suggestionFor(
  query: string,
  results: readonly FaqSearchHit[],
): { clusterKey: string; faqId: string; alternateFaqId: string } | null {
  const [top, second] = results;
  if (!top || !second || top.similarity === null || second.similarity === null) return null;
  if (top.similarity < SUGGESTION_MIN_SIMILARITY || second.similarity < SUGGESTION_MIN_SIMILARITY) return null;
  if (Math.abs(top.similarity - second.similarity) > SUGGESTION_MARGIN) return null;
  const folded = foldText(query);
  // Already a phrasing the FAQ has: nothing to learn.
  if (folded === foldText(top.faq.question) || (top.matchedVariant && folded === foldText(top.matchedVariant.variantText))) return null;
  const words = [...new Set(expandQuery(query).keywords)].sort();
  if (words.length === 0) return null;
  return { clusterKey: `${top.faq.id}:${words.join(" ")}`, faqId: top.faq.id, alternateFaqId: second.faq.id };
}

export async function recordSuggestion(
  services: Pick<Services, "db" | "clock">,
  tenantId: string,
  query: string,
  results: readonly FaqSearchHit[],
): Promise<boolean> {
  const cluster = suggestionFor(query, results);
  if (!cluster) return false;
  const now = services.clock.now();
  await services.db
    .prepare(
      `INSERT INTO faq_suggestions (id, tenant_id, cluster_key, faq_id, alternate_faq_id, query_text, samples, count, status, first_seen_at, last_seen_at)
       VALUES (?, ?, ?, ?, ?, ?, json_array(?), 1, 'open', ?, ?)
       ON CONFLICT (tenant_id, cluster_key) DO UPDATE SET count = count + 1, last_seen_at = excluded.last_seen_at,
         samples = CASE WHEN json_array_length(samples) < ${MAX_SAMPLES}
                         AND NOT EXISTS (SELECT 1 FROM json_each(samples) WHERE json_each.value = excluded.query_text)
                   THEN json_insert(samples, '$[#]', excluded.query_text) ELSE samples END`,
    )
    .bind(newId("sug"), tenantId, cluster.clusterKey, cluster.faqId, cluster.alternateFaqId, query, query, now, now)
    .run();
  return true;
}

export interface Suggestion {
  id: string;
  faqId: string;
  faqQuestion: string;
  alternateFaqId: string;
  queryText: string;
  samples: string[];
  count: number;
  firstSeenAt: string;
  lastSeenAt: string;
}

/** Open clusters of live FAQs, most frequent first. */
export async function listSuggestions(db: D1Database, tenantId: string, limit: number): Promise<Suggestion[]> {
  const { results } = await db
    .prepare(
      `SELECT s.id, s.faq_id, f.question, s.alternate_faq_id, s.query_text, s.samples, s.count, s.first_seen_at, s.last_seen_at
       FROM faq_suggestions s JOIN faqs f ON f.id = s.faq_id AND f.tenant_id = s.tenant_id
       WHERE s.tenant_id = ? AND s.status = 'open' AND f.deleted_at IS NULL ORDER BY s.count DESC, s.last_seen_at DESC LIMIT ?`,
    )
    .bind(tenantId, limit)
    .all<{
      id: string;
      faq_id: string;
      question: string;
      alternate_faq_id: string;
      query_text: string;
      samples: string;
      count: number;
      first_seen_at: number;
      last_seen_at: number;
    }>();
  return results.map((r) => ({
    id: r.id,
    faqId: r.faq_id,
    faqQuestion: r.question,
    alternateFaqId: r.alternate_faq_id,
    queryText: r.query_text,
    samples: samplesSchema.parse(JSON.parse(r.samples)),
    count: r.count,
    firstSeenAt: new Date(r.first_seen_at).toISOString(),
    lastSeenAt: new Date(r.last_seen_at).toISOString(),
  }));
}

/** accepted or dismissed; `variant` is the accept's outcome (null for a dismiss). */
export type ResolveResult = Result<{ variant: AddVariantResult | null }, "not_found">;

/** What resolving needs of an open suggestion. */
export interface OpenSuggestion {
  faq_id: string;
  alternate_faq_id: string;
  query_text: string;
}

/**
 * accept: the cluster's query (or the admin's edited text) becomes a variant of `faqId` (the
 * top FAQ unless the admin picks the alternate), source "suggestion"; dismiss: closed, nothing
 * added. `close` writes the new status; it is not called when the variant could not be added.
 */
export async function resolveOpenSuggestion(
  store: Pick<FaqStore, "addVariant">,
  open: OpenSuggestion | null,
  tenantId: string,
  action: "accept" | "dismiss",
  by: string,
  override: SuggestionOverride,
  close: (status: "accepted" | "dismissed") => Promise<void>,
): Promise<ResolveResult> {
  if (!open) return err("not_found");
  let variant: AddVariantResult | null = null;
  if (action === "accept") {
    const faqId = override.faqId ?? open.faq_id;
    if (faqId !== open.faq_id && faqId !== open.alternate_faq_id) return err("not_found");
    variant = await store.addVariant(tenantId, faqId, by, { variantText: override.variantText ?? open.query_text, source: "suggestion" });
    if (!variant.ok) return ok({ variant });
  }
  await close(action === "accept" ? "accepted" : "dismissed");
  return ok({ variant });
}

/** resolveOpenSuggestion on D1. */
export async function resolveSuggestion(
  services: Services,
  tenantId: string,
  id: string,
  action: "accept" | "dismiss",
  by: string,
  override: SuggestionOverride = {},
): Promise<ResolveResult> {
  const { db } = services;
  const open = await db
    .prepare("SELECT faq_id, alternate_faq_id, query_text FROM faq_suggestions WHERE id = ? AND tenant_id = ? AND status = 'open'")
    .bind(id, tenantId)
    .first<OpenSuggestion>();
  return resolveOpenSuggestion(faqStore(services), open, tenantId, action, by, override, async (status) => {
    await db.prepare("UPDATE faq_suggestions SET status = ? WHERE id = ? AND tenant_id = ?").bind(status, id, tenantId).run();
  });
}
