/** Hits per UTC day of one FAQ (the review desk's hit chart), every day of the range, zeros included. */
const DAY_MS = 24 * 3600 * 1000;

export interface DailyHits {
  /** YYYY-MM-DD (UTC). */
  day: string;
  hits: number;
}

export async function faqHitsPerDay(db: D1Database, tenantId: string, faqId: string, days: number, now: number): Promise<DailyHits[]> {
  const firstDay = Math.floor(now / DAY_MS) - (days - 1);
  const { results } = await db
    // The day length is written into the SQL: as a bound parameter it would be a REAL and the division fractional.
    .prepare(
      `SELECT hit_at / ${DAY_MS} AS day, COUNT(*) AS hits FROM faq_hits WHERE tenant_id = ? AND faq_id = ? AND hit_at >= ? GROUP BY day`,
    )
    .bind(tenantId, faqId, firstDay * DAY_MS)
    .all<{ day: number; hits: number }>();
  const byDay = new Map(results.map((r) => [r.day, r.hits]));
  return Array.from({ length: days }, (_, i) => {
    const day = firstDay + i;
    return { day: new Date(day * DAY_MS).toISOString().slice(0, 10), hits: byDay.get(day) ?? 0 };
  });
}
