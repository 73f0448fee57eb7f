/**
 * Labelled pairs: an admin's uploads (`{a, b, label}` lines) and the labels a show's "use anyway"
 * leaves. Kept per tenant with who gave them (`created_by`); the same pair again replaces its
 * label, so an upload can be repeated or corrected. A client key's override is weak evidence: it
 * never replaces a label an admin gave, at most CLIENT_OVERRIDE_LABEL_CAP of them are kept, and a
 * fit reads them after every admin label.
 */
import { and, count, eq, sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import { calibrationLabelPairs } from "../../platform/db/schema/calibration";
import type { Band } from "../../core/calibration/bands";
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
export async function storeUploadedPairs(
  db: D1Database,
  tenantId: string,
  pairs: readonly LabelledPair[],
  by: string,
  now: number,
): Promise<number> {
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

/** Labels a client key's overrides may leave per tenant. */
export const CLIENT_OVERRIDE_LABEL_CAP = 100;
const CLIENT_OVERRIDE = "override:client:";

/** Who gave a label, as `created_by` says: "override:client:<key name>" for a client key's "use anyway". */
export const overrideLabelBy = (role: "client" | "admin", name: string) => `override:${role}:${name}`;

/**
 * The label a show's override leaves: an admin's replaces any label of the pair; a client key's
 * only another client override's, and none once the tenant holds CLIENT_OVERRIDE_LABEL_CAP of
 * them. Returns whether it was stored.
 */
export async function storeOverrideLabel(db: D1Database, tenantId: string, pair: LabelledPair, by: string, now: number): Promise<boolean> {
  if (!by.startsWith(CLIENT_OVERRIDE)) return (await storeUploadedPairs(db, tenantId, [pair], by, now)) > 0;
  const d = drizzle(db);
  const [held] = await d
    .select({ n: count() })
    .from(lp)
    .where(and(eq(lp.tenantId, tenantId), sql`${lp.createdBy} LIKE ${`${CLIENT_OVERRIDE}%`}`));
  if ((held?.n ?? 0) >= CLIENT_OVERRIDE_LABEL_CAP) return false;
  const stored = await d
    .insert(lp)
    .values({ tenantId, ...pair, createdBy: by, createdAt: now })
    .onConflictDoUpdate({
      target: [lp.tenantId, lp.a, lp.b],
      set: { label: sql`excluded.label`, createdBy: by, createdAt: now },
      setWhere: sql`${lp.createdBy} LIKE ${`${CLIENT_OVERRIDE}%`}`,
    })
    .returning({ a: lp.a });
  return stored.length > 0;
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
    // An admin's labels first: a client key's overrides only fill what room is left.
    .orderBy(sql`${lp.createdBy} LIKE ${`${CLIENT_OVERRIDE}%`}`)
    .limit(MAX_UPLOADED);
  return rows.map((r) => ({ source: "uploaded", groupKey: `uploaded:${r.a}`, label: r.label, a: r.a, b: r.b, raw: null }));
}

export async function deleteUploadedPairs(db: D1Database, tenantId: string): Promise<number> {
  const result = await drizzle(db).delete(lp).where(eq(lp.tenantId, tenantId));
  return result.meta.changes ?? 0;
}
