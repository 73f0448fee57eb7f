/**
 * The fitted scales in D1, versioned per scope (a tenant id, or DEPLOYMENT) and model. A new
 * version becomes the active one in the same batch that retires the old; rollback makes an older
 * version active again. Exactly the rows a scope owns: every query filters on it.
 */
import { and, desc, eq, inArray } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import { calibrationTables } from "../../platform/db/schema/calibration";
import { type Calibration, parseCalibration } from "../../core/calibration/calibration";
import { parseSameQuestionModel, type DecisionThresholds, UNFITTED } from "../../core/decisions/same-question";
import type { Scale } from "../../core/scale/scale";

/** The scope of the deployment's own fit: it serves every tenant that has none of its own. */
export const DEPLOYMENT = "*";

const ct = calibrationTables;
export type StoredTableRow = typeof ct.$inferSelect;

/** What a stored version holds: the calibration's map and the decision's embedding thresholds. */
export interface StoredTables {
  calibration: Pick<Calibration, "method" | "fittedOn" | "knots">;
  decision: DecisionThresholds;
}

/**
 * The scale a stored version gives, on top of the shipped one (`base`): its calibration and its
 * decision thresholds; the repeat map, the shared-words thresholds and the same-question model
 * (P(same) over the alignment and the calibrated score) stay the shipped ones (the first has no
 * self-fit yet, the others do not depend on the tenant). Throws on a malformed row.
 */
export function scaleFromStored(row: Pick<StoredTableRow, "scope" | "model" | "version" | "tables" | "createdAt">, base: Scale): Scale {
  const tables = row.tables as unknown as StoredTables;
  const calibration = parseCalibration({ model: row.model, ...tables.calibration });
  const decision = parseSameQuestionModel({
    model: row.model,
    fittedOn: tables.calibration.fittedOn,
    embedding: { ...tables.decision, ...(base.decision?.embedding.logistic ? { logistic: base.decision.embedding.logistic } : {}) },
    lexical: base.decision?.lexical ?? UNFITTED.lexical,
  });
  return {
    model: row.model,
    calibration,
    repeat: base.repeat,
    decision,
    source: { kind: row.scope === DEPLOYMENT ? "deployment" : "tenant", version: row.version, fittedAt: new Date(row.createdAt).toISOString() },
  };
}

/** The active versions of the tenant and of the deployment for a model (at most one each). */
export async function activeTables(db: D1Database, tenantId: string, model: string): Promise<StoredTableRow[]> {
  return drizzle(db)
    .select()
    .from(ct)
    .where(and(eq(ct.model, model), eq(ct.active, true), inArray(ct.scope, [tenantId, DEPLOYMENT])));
}

export async function listVersions(db: D1Database, scope: string, model: string): Promise<StoredTableRow[]> {
  return drizzle(db)
    .select()
    .from(ct)
    .where(and(eq(ct.scope, scope), eq(ct.model, model)))
    .orderBy(desc(ct.version));
}

export async function getVersion(db: D1Database, scope: string, model: string, version: number): Promise<StoredTableRow | null> {
  const [row] = await drizzle(db)
    .select()
    .from(ct)
    .where(and(eq(ct.scope, scope), eq(ct.model, model), eq(ct.version, version)));
  return row ?? null;
}

/**
 * Stores a new version and, unless it is only a candidate (`active: false`: it failed the reference
 * check, reference.ts), makes it the active one (one batch); returns its number.
 */
export async function storeVersion(
  db: D1Database,
  row: Pick<StoredTableRow, "scope" | "model" | "report" | "fitId" | "createdBy" | "createdAt"> & { tables: StoredTables },
  { active = true } = {},
): Promise<number> {
  const d = drizzle(db);
  const [latest] = await d
    .select({ version: ct.version })
    .from(ct)
    .where(and(eq(ct.scope, row.scope), eq(ct.model, row.model)))
    .orderBy(desc(ct.version))
    .limit(1);
  const version = (latest?.version ?? 0) + 1;
  const insert = d.insert(ct).values({ ...row, tables: row.tables as unknown as Record<string, unknown>, version, active });
  if (!active) await insert;
  else
    await d.batch([
      d
        .update(ct)
        .set({ active: false })
        .where(and(eq(ct.scope, row.scope), eq(ct.model, row.model), eq(ct.active, true))),
      insert,
    ]);
  return version;
}

/** Makes `version` the active one; false when there is no such version. */
export async function activateVersion(db: D1Database, scope: string, model: string, version: number): Promise<boolean> {
  if (!(await getVersion(db, scope, model, version))) return false;
  const d = drizzle(db);
  await d.batch([
    d
      .update(ct)
      .set({ active: false })
      .where(and(eq(ct.scope, scope), eq(ct.model, model), eq(ct.active, true))),
    d
      .update(ct)
      .set({ active: true })
      .where(and(eq(ct.scope, scope), eq(ct.model, model), eq(ct.version, version))),
  ]);
  return true;
}

/** Every scope's active version for a model (the cron's refit check). */
export async function activeVersions(db: D1Database, model: string): Promise<StoredTableRow[]> {
  return drizzle(db)
    .select()
    .from(ct)
    .where(and(eq(ct.model, model), eq(ct.active, true)));
}
