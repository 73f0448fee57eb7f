/** Suggestions on Postgres: the clusters of ../suggestions.ts (same key, same sample rule), samples as a jsonb array. */
import { and, desc, eq, isNull, sql } from "drizzle-orm";
import type { PgDatabase } from "../../../platform/db/pg/client";
import { pgFaqs, pgFaqSuggestions } from "../../../platform/db/pg/schema";
import type { Services } from "../../../platform/ports/services";
import type { FaqStore, FaqSuggestionsPort } from "../port";
import { MAX_SAMPLES, newSuggestionRow, resolveOpenSuggestion, suggestionFor, toSuggestion } from "../suggestions";

const t = pgFaqSuggestions;

export function postgresSuggestions(
  db: PgDatabase,
  { clock }: Pick<Services, "clock">,
  store: Pick<FaqStore, "addVariant">,
): FaqSuggestionsPort {
  return {
    async recordSuggestion(tenantId, query, results) {
      const cluster = suggestionFor(query, results);
      if (!cluster) return false;
      const now = clock.now();
      await db
        .insert(t)
        .values(newSuggestionRow(tenantId, query, cluster, now))
        .onConflictDoUpdate({
          target: [t.tenantId, t.clusterKey],
          set: {
            count: sql`${t.count} + 1`,
            lastSeenAt: sql`excluded.last_seen_at`,
            // A new phrasing joins the samples while there is room (jsonb: no json_each as on D1).
            samples: sql`CASE WHEN jsonb_array_length(${t.samples}) < ${sql.raw(String(MAX_SAMPLES))}
              AND NOT ${t.samples} @> jsonb_build_array(excluded.query_text) THEN ${t.samples} || jsonb_build_array(excluded.query_text) ELSE ${t.samples} END`,
          },
        });
      return true;
    },

    async listSuggestions(tenantId, limit) {
      const rows = await db
        .select({
          id: t.id,
          faqId: t.faqId,
          faqQuestion: pgFaqs.question,
          alternateFaqId: t.alternateFaqId,
          queryText: t.queryText,
          samples: t.samples,
          count: t.count,
          firstSeenAt: t.firstSeenAt,
          lastSeenAt: t.lastSeenAt,
        })
        .from(t)
        .innerJoin(pgFaqs, and(eq(pgFaqs.id, t.faqId), eq(pgFaqs.tenantId, t.tenantId)))
        .where(and(eq(t.tenantId, tenantId), eq(t.status, "open"), isNull(pgFaqs.deletedAt)))
        .orderBy(desc(t.count), desc(t.lastSeenAt))
        .limit(limit);
      return rows.map(toSuggestion);
    },

    async resolveSuggestion(tenantId, id, action, by, override = {}) {
      const [open] = await db
        .select({ faq_id: t.faqId, alternate_faq_id: t.alternateFaqId, query_text: t.queryText })
        .from(t)
        .where(and(eq(t.id, id), eq(t.tenantId, tenantId), eq(t.status, "open")));
      return resolveOpenSuggestion(store, open ?? null, tenantId, action, by, override, async (status) => {
        await db
          .update(t)
          .set({ status })
          .where(and(eq(t.id, id), eq(t.tenantId, tenantId)));
      });
    },
  };
}
