/** Hits per UTC day of one FAQ (the review desk's hit chart), every day of the range, zeros included. */
import { DAY_MS } from "./hits";

export interface DailyHits {
  /** YYYY-MM-DD (UTC). */
  day: string;
  hits: number;
}

export async function faqHitsPerDay(db: D1Database, tenantId: string, faqId: string, days: number, now: number): Promise<DailyHits[]> {
  const first = firstDay(now, days);
  const { results } = await db
    // The day length is written into the SQL: as a bound parameter it would be a REAL and the division fractional.
    .prepare(
      `SELECT hit_at / ${DAY_MS} AS day, COUNT(*) AS hits FROM faq_hits WHERE tenant_id = ? AND faq_id = ? AND hit_at >= ? GROUP BY day`,
    )
    .bind(tenantId, faqId, first * DAY_MS)
    .all<{ day: number; hits: number }>();
  return everyDay(first, days, results);
}

/** The day number (days since the epoch, UTC) the chart starts at. */
export const firstDay = (now: number, days: number) => Math.floor(now / DAY_MS) - (days - 1);

/** Every day of the range with its count (day numbers since the epoch), zeros included. */
export function everyDay(first: number, days: number, counted: readonly { day: number; hits: number }[]): DailyHits[] {
  const byDay = new Map(counted.map((r) => [r.day, r.hits]));
  return Array.from({ length: days }, (_, i) => {
    const day = first + i;
    return { day: new Date(day * DAY_MS).toISOString().slice(0, 10), hits: byDay.get(day) ?? 0 };
  });
}
