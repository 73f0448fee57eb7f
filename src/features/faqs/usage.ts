/**
 * FAQ usage at a glance (seed 002 Enhancement 4's use cases: "identify high-value FAQs, find
 * unused FAQs for review"): all live FAQs' hits per day, the FAQs no search ever returned, and
 * the ones rising or falling (the last TREND_DAYS days against the TREND_DAYS before). Hits of
 * deleted FAQs stay in the table but count nowhere here. The D1 queries; postgres/usage.ts runs the
 * same ones.
 */
import { and, asc, count, countDistinct, desc, eq, gte, isNull, lt, notExists, sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import { faqHits, faqs } from "../../platform/db/schema";
import { DAY_MS } from "./hits";
import { everyDay, firstDay } from "./hits-daily";
import type { FaqUsage } from "./types";

/** The trend compares two rolling windows of this many days, ending now (not calendar weeks: a Monday would compare one day with seven). */
export const TREND_DAYS = 7;

/** Where the windows start: the chart's first day, this week's and the previous week's first moment. */
export function usageWindows(now: number, days: number) {
  const thisWeek = now - TREND_DAYS * DAY_MS;
  return { first: firstDay(now, days), thisWeek, previousWeek: thisWeek - TREND_DAYS * DAY_MS };
}

const liveHit = and(eq(faqs.tenantId, faqHits.tenantId), eq(faqs.id, faqHits.faqId), isNull(faqs.deletedAt));

export async function faqUsage(db: D1Database, tenantId: string, now: number, days: number, limit: number): Promise<FaqUsage> {
  const orm = drizzle(db);
  const { first, thisWeek, previousWeek } = usageWindows(now, days);
  // The day length is written into the SQL: as a bound parameter it would be a REAL and the division fractional.
  const day = sql<number>`${faqHits.hitAt} / ${sql.raw(String(DAY_MS))}`;
  const inWindow = and(eq(faqHits.tenantId, tenantId), gte(faqHits.hitAt, first * DAY_MS));
  const unused = and(
    eq(faqs.tenantId, tenantId),
    isNull(faqs.deletedAt),
    notExists(
      orm
        .select({ one: sql`1` })
        .from(faqHits)
        .where(and(eq(faqHits.tenantId, faqs.tenantId), eq(faqHits.faqId, faqs.id))),
    ),
  );
  const recent = sql<number>`sum(case when ${faqHits.hitAt} >= ${thisWeek} then 1 else 0 end)`.mapWith(Number);
  const [perDay, [window], [live], [never], neverRows, trendRows] = await orm.batch([
    orm.select({ day, hits: count() }).from(faqHits).innerJoin(faqs, liveHit).where(inWindow).groupBy(day),
    orm
      .select({ hits: count(), sessions: countDistinct(faqHits.sessionId) })
      .from(faqHits)
      .innerJoin(faqs, liveHit)
      .where(inWindow),
    orm
      .select({ n: count() })
      .from(faqs)
      .where(and(eq(faqs.tenantId, tenantId), isNull(faqs.deletedAt))),
    orm.select({ n: count() }).from(faqs).where(unused),
    orm
      .select({ id: faqs.id, question: faqs.question, createdAt: faqs.createdAt })
      .from(faqs)
      .where(unused)
      .orderBy(asc(faqs.seq))
      .limit(limit),
    orm
      .select({ id: faqs.id, question: faqs.question, total: count(), thisWeek: recent })
      .from(faqHits)
      .innerJoin(faqs, liveHit)
      .where(and(eq(faqHits.tenantId, tenantId), gte(faqHits.hitAt, previousWeek), lt(faqHits.hitAt, now + 1)))
      .groupBy(faqs.id)
      // Rising first (this week − previous = 2 · this week − both), then the busier, then the newer FAQ.
      .orderBy(desc(sql`2 * ${recent} - count(*)`), desc(recent), desc(faqs.seq))
      .limit(limit),
  ]);
  return usageAnswer({ first, days, perDay, window, live, never, trendRows, neverRows });
}

/** The rows both backends' queries return. */
export interface UsageRows {
  first: number;
  days: number;
  perDay: Parameters<typeof everyDay>[2];
  window: { hits: number; sessions: number } | undefined;
  live: { n: number } | undefined;
  never: { n: number } | undefined;
  trendRows: readonly { id: string; question: string; thisWeek: number; total: number }[];
  neverRows: readonly { id: string; question: string; createdAt: number | string }[];
}

/** The answer from the rows (D1 here, Postgres in postgres/usage.ts; Postgres returns a bigint time as a string). */
export function usageAnswer(r: UsageRows): FaqUsage {
  return {
    daily: everyDay(r.first, r.days, r.perDay),
    hits: r.window?.hits ?? 0,
    sessions: r.window?.sessions ?? 0,
    liveFaqs: r.live?.n ?? 0,
    neverUsedFaqs: r.never?.n ?? 0,
    trending: r.trendRows.map((t) => ({ id: t.id, question: t.question, thisWeek: t.thisWeek, previousWeek: t.total - t.thisWeek })),
    neverUsed: r.neverRows.map((n) => ({ id: n.id, question: n.question, createdAt: new Date(Number(n.createdAt)).toISOString() })),
  };
}
