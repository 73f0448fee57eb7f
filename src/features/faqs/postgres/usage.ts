/** FAQ usage on Postgres: the same queries and answer as on D1 (../usage.ts), through drizzle's query builder. */
import { and, asc, count, countDistinct, desc, eq, gte, isNull, lt, notExists, sql } from "drizzle-orm";
import type { PgDatabase } from "../../../platform/db/pg/client";
import { pgFaqHits, pgFaqs } from "../../../platform/db/pg/schema";
import { DAY_MS } from "../hits";
import type { FaqUsage } from "../types";
import { usageAnswer, usageWindows } from "../usage";

/** Integer division of a bigint by a literal (written into the SQL so it stays an integer division). */
const dayOf = sql<number>`${pgFaqHits.hitAt} / ${sql.raw(String(DAY_MS))}`.mapWith(Number);
const liveHit = and(eq(pgFaqs.tenantId, pgFaqHits.tenantId), eq(pgFaqs.id, pgFaqHits.faqId), isNull(pgFaqs.deletedAt));

export async function faqUsagePostgres(db: PgDatabase, tenantId: string, now: number, days: number, limit: number): Promise<FaqUsage> {
  const { first, thisWeek, previousWeek } = usageWindows(now, days);
  const inWindow = and(eq(pgFaqHits.tenantId, tenantId), gte(pgFaqHits.hitAt, first * DAY_MS));
  const unused = and(
    eq(pgFaqs.tenantId, tenantId),
    isNull(pgFaqs.deletedAt),
    notExists(
      db
        .select({ one: sql`1` })
        .from(pgFaqHits)
        .where(and(eq(pgFaqHits.tenantId, pgFaqs.tenantId), eq(pgFaqHits.faqId, pgFaqs.id))),
    ),
  );
  // count() and sum() of bigint come back as text from the driver.
  const recent = sql<number>`sum(case when ${pgFaqHits.hitAt} >= ${thisWeek} then 1 else 0 end)`.mapWith(Number);
  const [perDay, [window], [live], [never], neverRows, trendRows] = await Promise.all([
    db.select({ day: dayOf, hits: count() }).from(pgFaqHits).innerJoin(pgFaqs, liveHit).where(inWindow).groupBy(dayOf),
    db
      .select({ hits: count(), sessions: countDistinct(pgFaqHits.sessionId) })
      .from(pgFaqHits)
      .innerJoin(pgFaqs, liveHit)
      .where(inWindow),
    db
      .select({ n: count() })
      .from(pgFaqs)
      .where(and(eq(pgFaqs.tenantId, tenantId), isNull(pgFaqs.deletedAt))),
    db.select({ n: count() }).from(pgFaqs).where(unused),
    db
      .select({ id: pgFaqs.id, question: pgFaqs.question, createdAt: pgFaqs.createdAt })
      .from(pgFaqs)
      .where(unused)
      .orderBy(asc(pgFaqs.seq))
      .limit(limit),
    db
      .select({ id: pgFaqs.id, question: pgFaqs.question, total: count(), thisWeek: recent })
      .from(pgFaqHits)
      .innerJoin(pgFaqs, liveHit)
      .where(and(eq(pgFaqHits.tenantId, tenantId), gte(pgFaqHits.hitAt, previousWeek), lt(pgFaqHits.hitAt, now + 1)))
      .groupBy(pgFaqs.id, pgFaqs.question, pgFaqs.seq)
      // Rising first (this week − previous = 2 · this week − both), then the busier, then the newer FAQ.
      .orderBy(desc(sql`2 * ${recent} - count(*)`), desc(recent), desc(pgFaqs.seq))
      .limit(limit),
  ]);
  return usageAnswer({ first, days, perDay, window, live, never, trendRows, neverRows });
}
