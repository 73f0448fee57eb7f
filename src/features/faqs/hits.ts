/** Hit tracking (seed 002 §7.2.3, §7.2.6): which FAQs searches returned, to whom, how well. */
import { and, count, countDistinct, desc, eq, isNull, max, sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import { faqHits, faqs } from "../../platform/db/schema";
import type { Services } from "../../platform/ports/services";
import type { FaqSearchHit, FaqStats } from "./types";

export const DAY_MS = 24 * 3600 * 1000;

/** D1 binds at most 100 parameters per statement: 7 columns, so 14 hits per insert. */
const HITS_PER_INSERT = 14;

/** One hit per returned FAQ (as the seed's retriever records them), in one batch. */
export async function recordHits(
  { db, clock }: Pick<Services, "db" | "clock">,
  tenantId: string,
  sessionId: string,
  query: string,
  hits: readonly FaqSearchHit[],
): Promise<void> {
  if (hits.length === 0) return;
  const hitAt = clock.now();
  const rows = hits.map((h) => ({
    tenantId,
    faqId: h.faq.id,
    variantId: h.matchedVariant?.id ?? null,
    queryText: query,
    score: h.similarity ?? 0,
    sessionId,
    hitAt,
  }));
  const orm = drizzle(db);
  const [first, ...more] = Array.from({ length: Math.ceil(rows.length / HITS_PER_INSERT) }, (_, i) =>
    orm.insert(faqHits).values(rows.slice(i * HITS_PER_INSERT, (i + 1) * HITS_PER_INSERT)),
  );
  await orm.batch([first!, ...more]);
}

/** The aggregates of one FAQ's hits, as both backends' queries return them. */
export interface StatsRow {
  total_hits: number;
  unique_sessions: number;
  days_with_hits: number;
  last_hit_at: number | null;
  avg_score: number | null;
}

/** Integer division by a literal (written into the SQL: as a bound parameter it would be a REAL and the division fractional). */
const dayOf = sql<number>`${faqHits.hitAt} / ${sql.raw(String(DAY_MS))}`;

const statsColumns = {
  total_hits: count(faqHits.id),
  unique_sessions: countDistinct(faqHits.sessionId),
  days_with_hits: countDistinct(dayOf),
  last_hit_at: max(faqHits.hitAt),
  avg_score: sql<number | null>`avg(${faqHits.score})`,
};

const hitsOfFaq = and(eq(faqHits.tenantId, faqs.tenantId), eq(faqHits.faqId, faqs.id));

export const toStats = (r: StatsRow): FaqStats => ({
  totalHits: r.total_hits,
  uniqueSessions: r.unique_sessions,
  daysWithHits: r.days_with_hits,
  lastHitAt: r.last_hit_at === null ? null : new Date(r.last_hit_at).toISOString(),
  avgScore: r.avg_score === null ? null : Number(r.avg_score.toPrecision(4)),
});

export const NO_HITS: FaqStats = { totalHits: 0, uniqueSessions: 0, daysWithHits: 0, lastHitAt: null, avgScore: null };

export async function faqStats(db: D1Database, tenantId: string, faqId: string): Promise<FaqStats> {
  const [row] = await drizzle(db)
    .select(statsColumns)
    .from(faqs)
    .leftJoin(faqHits, hitsOfFaq)
    .where(and(eq(faqs.tenantId, tenantId), eq(faqs.id, faqId)))
    .groupBy(faqs.id);
  return row ? toStats(row) : NO_HITS;
}

/** The tenant's live FAQs with their stats, most hit first (the seed's faq_hit_stats view), one page. */
export async function allFaqStats(
  db: D1Database,
  tenantId: string,
  limit: number,
): Promise<({ id: string; question: string } & FaqStats)[]> {
  const rows = await drizzle(db)
    .select({ id: faqs.id, question: faqs.question, ...statsColumns })
    .from(faqs)
    .leftJoin(faqHits, hitsOfFaq)
    .where(and(eq(faqs.tenantId, tenantId), isNull(faqs.deletedAt)))
    .groupBy(faqs.id)
    .orderBy(desc(count(faqHits.id)), desc(faqs.seq))
    .limit(limit);
  return rows.map((r) => ({ id: r.id, question: r.question, ...toStats(r) }));
}
