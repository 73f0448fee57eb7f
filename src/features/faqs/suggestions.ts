/**
 * Suggestions (active learning, after QnA Maker): a search whose top two FAQs are both relevant
 * (calibrated similarity ≥ SUGGESTION_MIN_SIMILARITY) and within SUGGESTION_MARGIN of each other
 * was ambiguous, so its query is a candidate alternate phrasing of the top FAQ. Queries cluster
 * by (top FAQ, sorted content words of the query): "reset password how" and "how to reset my
 * password?" are one cluster. An admin accepts a cluster (its first query becomes a variant,
 * source "suggestion") or dismisses it. The margin compares calibrated similarity, not the RRF
 * score: RRF is rank-based and flat (rank 1 vs 2 in all four lists differ by 1.6 %).
 */
import { and, desc, eq, isNull, sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import { faqs, faqSuggestions } from "../../platform/db/schema";
import { expandQuery } from "../../core/text/expand";
import { newId } from "../../core/base/ids";
import type { Services } from "../../platform/ports/services";
import type { AddVariantResult, FaqSearchHit, ResolveResult, Suggestion } from "./types";
import { foldText } from "./store";
import { addVariant } from "./variants";
import { samplesSchema } from "./json-columns";
import type { FaqStore, SuggestionOverride } from "./port";
import { err, ok } from "../../core/base/result";

export const SUGGESTION_MARGIN = 0.05;
export const SUGGESTION_MIN_SIMILARITY = 0.6;
/** Distinct phrasings a cluster keeps as samples. */
export const MAX_SAMPLES = 5;

/** Searches whose query hesitates between the same two FAQs with the same content words. */
export interface SuggestionCluster {
  clusterKey: string;
  faqId: string;
  alternateFaqId: string;
}

/** The cluster a search's query belongs to, or null when the search was not ambiguous. */
export function suggestionFor(query: string, results: readonly FaqSearchHit[]): SuggestionCluster | null {
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

/** The row the first search of a cluster inserts (the same on both backends). */
export function newSuggestionRow(tenantId: string, query: string, cluster: SuggestionCluster, now: number) {
  return { id: newId("sug"), tenantId, ...cluster, queryText: query, samples: [query], firstSeenAt: now, lastSeenAt: now };
}

/** A stored suggestion as the API answers it (both backends): samples parsed by schema, times in ISO. */
export function toSuggestion<Row extends { samples: unknown; firstSeenAt: number; lastSeenAt: number }>(row: Row) {
  return {
    ...row,
    samples: samplesSchema.parse(row.samples),
    firstSeenAt: new Date(row.firstSeenAt).toISOString(),
    lastSeenAt: new Date(row.lastSeenAt).toISOString(),
  };
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
  const t = faqSuggestions;
  await drizzle(services.db)
    .insert(t)
    .values(newSuggestionRow(tenantId, query, cluster, now))
    .onConflictDoUpdate({
      target: [t.tenantId, t.clusterKey],
      set: {
        count: sql`${t.count} + 1`,
        lastSeenAt: sql`excluded.last_seen_at`,
        // SQLite's JSON functions (raw: the query builder has no json_each): a new phrasing joins the samples while there is room.
        samples: sql`CASE WHEN json_array_length(${t.samples}) < ${sql.raw(String(MAX_SAMPLES))}
          AND NOT EXISTS (SELECT 1 FROM json_each(${t.samples}) WHERE json_each.value = excluded.query_text)
          THEN json_insert(${t.samples}, '$[#]', excluded.query_text) ELSE ${t.samples} END`,
      },
    });
  return true;
}

/** Open clusters of live FAQs, most frequent first. */
export async function listSuggestions(db: D1Database, tenantId: string, limit: number): Promise<Suggestion[]> {
  const t = faqSuggestions;
  const rows = await drizzle(db)
    .select({
      id: t.id,
      faqId: t.faqId,
      faqQuestion: faqs.question,
      alternateFaqId: t.alternateFaqId,
      queryText: t.queryText,
      samples: t.samples,
      count: t.count,
      firstSeenAt: t.firstSeenAt,
      lastSeenAt: t.lastSeenAt,
    })
    .from(t)
    .innerJoin(faqs, and(eq(faqs.id, t.faqId), eq(faqs.tenantId, t.tenantId)))
    .where(and(eq(t.tenantId, tenantId), eq(t.status, "open"), isNull(faqs.deletedAt)))
    .orderBy(desc(t.count), desc(t.lastSeenAt))
    .limit(limit);
  return rows.map(toSuggestion);
}

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

/** resolveOpenSuggestion on D1: the variant is added on D1 too. */
export async function resolveSuggestion(
  services: Services,
  tenantId: string,
  id: string,
  action: "accept" | "dismiss",
  by: string,
  override: SuggestionOverride = {},
): Promise<ResolveResult> {
  const orm = drizzle(services.db);
  const t = faqSuggestions;
  const [open] = await orm
    .select({ faq_id: t.faqId, alternate_faq_id: t.alternateFaqId, query_text: t.queryText })
    .from(t)
    .where(and(eq(t.id, id), eq(t.tenantId, tenantId), eq(t.status, "open")));
  const d1: Pick<FaqStore, "addVariant"> = { addVariant: (...args) => addVariant(services, ...args) };
  return resolveOpenSuggestion(d1, open ?? null, tenantId, action, by, override, async (status) => {
    await orm
      .update(t)
      .set({ status })
      .where(and(eq(t.id, id), eq(t.tenantId, tenantId)));
  });
}
