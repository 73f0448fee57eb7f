/** Hits per UTC day of one FAQ (the review desk's hit chart), every day of the range, zeros included. */
import { and, count, eq, gte, sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import { faqHits } from "../../platform/db/schema";
import { DAY_MS } from "./hits";
import type { DailyHits } from "./types";

export async function faqHitsPerDay(db: D1Database, tenantId: string, faqId: string, days: number, now: number): Promise<DailyHits[]> {
  const first = firstDay(now, days);
  // The day length is written into the SQL: as a bound parameter it would be a REAL and the division fractional.
  const day = sql<number>`${faqHits.hitAt} / ${sql.raw(String(DAY_MS))}`;
  const counted = await drizzle(db)
    .select({ day, hits: count() })
    .from(faqHits)
    .where(and(eq(faqHits.tenantId, tenantId), eq(faqHits.faqId, faqId), gte(faqHits.hitAt, first * DAY_MS)))
    .groupBy(day);
  return everyDay(first, days, counted);
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
