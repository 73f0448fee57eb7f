/** Hits on Postgres (seed 002 §7.2.3): the same aggregates as D1 (../hits.ts), through drizzle's query builder. */
import { and, count, countDistinct, desc, eq, gte, isNull, max, sql } from "drizzle-orm";
import type { PgDatabase } from "../../../platform/db/pg/client";
import { pgFaqHits, pgFaqs } from "../../../platform/db/pg/schema";
import type { Services } from "../../../platform/ports/services";
import { DAY_MS, NO_HITS, toStats } from "../hits";
import { everyDay, firstDay } from "../hits-daily";
import type { FaqHitsPort } from "../port";
import { faqUsagePostgres } from "./usage";

/** Integer division of a bigint by a literal (written into the SQL so it stays an integer division). */
const dayOf = sql<number>`${pgFaqHits.hitAt} / ${sql.raw(String(DAY_MS))}`.mapWith(Number);

const statsColumns = {
  total_hits: count(pgFaqHits.id),
  unique_sessions: countDistinct(pgFaqHits.sessionId),
  days_with_hits: countDistinct(dayOf),
  last_hit_at: max(pgFaqHits.hitAt),
  // avg() of double precision comes back as text from the driver.
  avg_score: sql<number | null>`avg(${pgFaqHits.score})`.mapWith((v: string | number | null) => (v === null ? null : Number(v))),
};

const hitsOfFaq = and(eq(pgFaqHits.tenantId, pgFaqs.tenantId), eq(pgFaqHits.faqId, pgFaqs.id));

export function postgresHits(db: PgDatabase, { clock }: Pick<Services, "clock">): FaqHitsPort {
  return {
    async recordHits(tenantId, sessionId, query, hits) {
      if (hits.length === 0) return;
      const hitAt = clock.now();
      await db.insert(pgFaqHits).values(
        hits.map((h) => ({
          tenantId,
          faqId: h.faq.id,
          variantId: h.matchedVariant?.id ?? null,
          queryText: query,
          score: h.similarity ?? 0,
          sessionId,
          hitAt,
        })),
      );
    },

    async stats(tenantId, faqId) {
      const [row] = await db
        .select(statsColumns)
        .from(pgFaqs)
        .leftJoin(pgFaqHits, hitsOfFaq)
        .where(and(eq(pgFaqs.tenantId, tenantId), eq(pgFaqs.id, faqId)))
        .groupBy(pgFaqs.id);
      return row ? toStats(row) : NO_HITS;
    },

    async allStats(tenantId, limit) {
      const rows = await db
        .select({ id: pgFaqs.id, question: pgFaqs.question, ...statsColumns })
        .from(pgFaqs)
        .leftJoin(pgFaqHits, hitsOfFaq)
        .where(and(eq(pgFaqs.tenantId, tenantId), isNull(pgFaqs.deletedAt)))
        .groupBy(pgFaqs.id)
        .orderBy(desc(count(pgFaqHits.id)), desc(pgFaqs.seq))
        .limit(limit);
      return rows.map((r) => ({ id: r.id, question: r.question, ...toStats(r) }));
    },

    async hitsPerDay(tenantId, faqId, days, now) {
      const first = firstDay(now, days);
      const counted = await db
        .select({ day: dayOf, hits: count() })
        .from(pgFaqHits)
        .where(and(eq(pgFaqHits.tenantId, tenantId), eq(pgFaqHits.faqId, faqId), gte(pgFaqHits.hitAt, first * DAY_MS)))
        .groupBy(dayOf);
      return everyDay(first, days, counted);
    },

    usage: (tenantId, now, days, limit) => faqUsagePostgres(db, tenantId, now, days, limit),
  };
}
