/**
 * Labelled pairs an admin uploads (`{a, b, label}` lines): kept per tenant, the same pair again
 * replaces its label, so an upload can be repeated or corrected.
 */
import { and, count, eq, sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import { calibrationLabelPairs } from "../../db/schema/calibration";
import type { Band } from "../bands";
import { MAX_UPLOADED, type PairRow } from "./sources";

const lp = calibrationLabelPairs;

export interface LabelledPair {
  a: string;
  b: string;
  label: Band;
}

/** D1 binds at most 100 parameters per statement: 6 per row. */
const ROWS_PER_INSERT = 16;

/** Stores the pairs (upsert on the pair); returns how many were written. */
export async function storeUploadedPairs(db: D1Database, tenantId: string, pairs: readonly LabelledPair[], by: string, now: number): Promise<number> {
  const d = drizzle(db);
  const inserts = [];
  for (let i = 0; i < pairs.length; i += ROWS_PER_INSERT) {
    const rows = pairs.slice(i, i + ROWS_PER_INSERT).map((p) => ({ tenantId, ...p, createdBy: by, createdAt: now }));
    inserts.push(
      d
        .insert(lp)
        .values(rows)
        .onConflictDoUpdate({ target: [lp.tenantId, lp.a, lp.b], set: { label: sql`excluded.label`, createdBy: by, createdAt: now } }),
    );
  }
  if (inserts.length) await d.batch(inserts as [(typeof inserts)[number], ...(typeof inserts)[number][]]);
  return pairs.length;
}

export async function countUploadedPairs(db: D1Database, tenantId: string): Promise<number> {
  const [row] = await drizzle(db).select({ n: count() }).from(lp).where(eq(lp.tenantId, tenantId));
  return row?.n ?? 0;
}

export async function readUploadedPairs(db: D1Database, tenantId: string): Promise<PairRow[]> {
  const rows = await drizzle(db)
    .select({ a: lp.a, b: lp.b, label: lp.label })
    .from(lp)
    .where(and(eq(lp.tenantId, tenantId)))
    .limit(MAX_UPLOADED);
  return rows.map((r) => ({ source: "uploaded", groupKey: `uploaded:${r.a}`, label: r.label, a: r.a, b: r.b, raw: null }));
}

export async function deleteUploadedPairs(db: D1Database, tenantId: string): Promise<number> {
  const result = await drizzle(db).delete(lp).where(eq(lp.tenantId, tenantId));
  return result.meta.changes ?? 0;
}
