/**
 * /v1/admin/calibration: the scale in force and its precedence, the fits the deployed Worker runs
 * on the tenant's own labels (src/features/self-fit/), their versions, comparison and rollback,
 * and uploaded pairs. Admin keys only; a tenant sees and changes its own scale. The deployment's
 * scale (`scope=deployment`) is read by any admin and fitted or rolled back by the operator's
 * tenant only (OPERATOR_TENANT).
 */
import { type Context, Hono } from "hono";
import { z } from "zod";
import { calibrate } from "../../core/calibration/calibration";
import { forgetScales, scaleInForce } from "../../features/calibration/in-force";
import { shippedScale } from "../../core/scale/registry";
import { scaleStatus } from "../../core/scale/scale";
import { advanceFit, type FitRow, getFit, listFits, runningFit, startFit } from "../../features/self-fit/job";
import { SOURCES } from "../../features/self-fit/sources";
import {
  activateVersion,
  activeTables,
  DEPLOYMENT,
  getVersion,
  listVersions,
  type StoredTableRow,
} from "../../features/calibration/tables-store";
import { countUploadedPairs, deleteUploadedPairs, storeUploadedPairs } from "../../features/self-fit/uploaded";
import type { AppEnv } from "../context";
import { calibrationDocs } from "../docs/calibration";
import { AppError } from "../errors";
import { requireAdmin } from "../middleware/require-admin";
import { validate, visibleText } from "../validation";

const scopeQuery = z.strictObject({ scope: z.enum(["tenant", "deployment"]).default("tenant") });
const versionParam = z.strictObject({ version: z.coerce.number().int().min(1) });
const compareQuery = z.strictObject({
  scope: z.enum(["tenant", "deployment"]).default("tenant"),
  from: z.coerce.number().int().min(1),
  to: z.coerce.number().int().min(1),
});
const fitSchema = z.strictObject({
  sources: z
    .array(z.enum(SOURCES))
    .min(1)
    .max(SOURCES.length)
    .default([...SOURCES]),
  scope: z.enum(["tenant", "deployment"]).default("tenant"),
});
const text = visibleText(1000);
const labelSchema = z
  .enum(["paraphrase", "related", "unrelated", "same", "different"])
  .transform((l) => (l === "same" ? "paraphrase" : l === "different" ? "related" : l));
const pairsSchema = z.strictObject({
  pairs: z
    .array(z.strictObject({ a: text, b: text, label: labelSchema }))
    .min(1)
    .max(1000),
});

/** The stored scope of a request: the tenant's own, or the deployment's (writing it: the operator only). */
function scopeOf(c: Context<AppEnv>, scope: "tenant" | "deployment", write: boolean): string {
  const tenantId = c.get("principal").tenantId;
  if (scope === "tenant") return tenantId;
  if (write && (!c.env.OPERATOR_TENANT || c.env.OPERATOR_TENANT !== tenantId)) {
    throw new AppError("FORBIDDEN", "Only the operator's tenant (OPERATOR_TENANT) changes the deployment's scale");
  }
  return DEPLOYMENT;
}

const iso = (ms: number) => new Date(ms).toISOString();

function toFit(row: FitRow) {
  return {
    id: row.id,
    scope: row.scope === DEPLOYMENT ? "deployment" : "tenant",
    model: row.model,
    status: row.status,
    phase: row.phase,
    sources: row.sources,
    progress: { pairs: row.pairs, measured: row.measured },
    reason: row.reason,
    version: row.version,
    report: row.report ?? null,
    createdAt: iso(row.createdAt),
    updatedAt: iso(row.updatedAt),
  };
}

interface ReportFigures {
  pairs?: number;
  agreement?: { crossValidated?: { macro?: number } };
  decision?: { crossValidated?: { precision?: { value?: number }; recall?: { value?: number } } };
}

function toSummary(row: StoredTableRow) {
  const tables = row.tables as { calibration: { fittedOn: string }; decision: { sameMin: number; sharedMin: number; relatedMin: number } };
  const report = row.report as ReportFigures;
  return {
    version: row.version,
    active: row.active,
    createdAt: iso(row.createdAt),
    fittedOn: tables.calibration.fittedOn,
    pairs: report.pairs ?? 0,
    agreement: report.agreement?.crossValidated?.macro ?? null,
    decision: {
      sameMin: tables.decision.sameMin,
      sharedMin: tables.decision.sharedMin,
      relatedMin: tables.decision.relatedMin,
      precision: report.decision?.crossValidated?.precision?.value ?? null,
      recall: report.decision?.crossValidated?.recall?.value ?? null,
    },
  };
}

async function versionOr404(db: D1Database, scope: string, model: string, version: number) {
  const row = await getVersion(db, scope, model, version);
  if (!row) throw new AppError("NOT_FOUND", `No version ${version} of this scale`);
  return row;
}

export const calibration = new Hono<AppEnv>()
  .use(requireAdmin)
  .get("/", calibrationDocs.overview, async (c) => {
    const { home: db, embedder, clock, log } = c.get("services");
    const tenantId = c.get("principal").tenantId;
    const model = embedder.model;
    const [scale, active, running, recent] = await Promise.all([
      scaleInForce(db, tenantId, model, clock.now(), log),
      activeTables(db, tenantId, model),
      runningFit(db, tenantId, model),
      listFits(db, tenantId, 5),
    ]);
    const versionOf = (scope: string) => active.find((r) => r.scope === scope)?.version ?? null;
    const shipped = shippedScale(model).calibration !== null;
    return c.json({
      model,
      inForce: scaleStatus(scale),
      precedence: [
        { level: "tenant" as const, available: versionOf(tenantId) !== null, version: versionOf(tenantId) },
        { level: "deployment" as const, available: versionOf(DEPLOYMENT) !== null, version: versionOf(DEPLOYMENT) },
        { level: "shipped" as const, available: shipped, version: null },
        { level: "raw" as const, available: true, version: null },
      ],
      runningFit: running ? toFit(running) : null,
      recentFits: recent.map(toFit),
    });
  })
  .get("/versions", calibrationDocs.versions, validate("query", scopeQuery), async (c) => {
    const { scope } = c.req.valid("query");
    const { home: db, embedder } = c.get("services");
    const rows = await listVersions(db, scopeOf(c, scope, false), embedder.model);
    return c.json({ scope, model: embedder.model, versions: rows.map(toSummary) });
  })
  .get("/versions/:version", calibrationDocs.version, validate("param", versionParam), validate("query", scopeQuery), async (c) => {
    const { home: db, embedder } = c.get("services");
    const row = await versionOr404(db, scopeOf(c, c.req.valid("query").scope, false), embedder.model, c.req.valid("param").version);
    return c.json({ ...toSummary(row), tables: row.tables, report: row.report });
  })
  .get("/compare", calibrationDocs.compare, validate("query", compareQuery), async (c) => {
    const { scope, from, to } = c.req.valid("query");
    const { home: db, embedder } = c.get("services");
    const stored = scopeOf(c, scope, false);
    const [a, b] = [await versionOr404(db, stored, embedder.model, from), await versionOr404(db, stored, embedder.model, to)];
    const knotsOf = (row: StoredTableRow) => (row.tables as { calibration: { knots: [number, number][] } }).calibration.knots;
    const map = (row: StoredTableRow) => ({ model: row.model, method: "", fittedOn: "", knots: knotsOf(row) });
    let max = 0;
    for (let raw = -1; raw <= 1.0001; raw += 0.01) max = Math.max(max, Math.abs(calibrate(raw, map(a)) - calibrate(raw, map(b))));
    return c.json({ from: toSummary(a), to: toSummary(b), maxSimilarityDifference: Math.round(max * 1e4) / 1e4 });
  })
  .post("/rollback/:version", calibrationDocs.rollback, validate("param", versionParam), validate("query", scopeQuery), async (c) => {
    const { scope } = c.req.valid("query");
    const { home: db, embedder } = c.get("services");
    const version = c.req.valid("param").version;
    if (!(await activateVersion(db, scopeOf(c, scope, true), embedder.model, version)))
      throw new AppError("NOT_FOUND", `No version ${version} of this scale`);
    forgetScales();
    return c.json({ scope, model: embedder.model, active: version });
  })
  .post("/fit", calibrationDocs.fit, validate("json", fitSchema), async (c) => {
    const { sources, scope } = c.req.valid("json");
    const services = c.get("services");
    const { tenantId, keyId } = c.get("principal");
    const { fit } = await startFit(services, {
      scope: scopeOf(c, scope, true),
      tenantId,
      model: services.embedder.model,
      sources,
      by: keyId,
    });
    const now = await advanceFit(services, fit);
    return c.json(toFit(now), now.status === "running" ? 202 : 200);
  })
  .get("/fits/:id", calibrationDocs.getFit, validate("param", z.strictObject({ id: z.string().min(1).max(100) })), async (c) => {
    const { home: db } = c.get("services");
    const tenantId = c.get("principal").tenantId;
    const id = c.req.valid("param").id;
    const row = (await getFit(db, tenantId, id)) ?? (await getFit(db, DEPLOYMENT, id).then((r) => (r?.tenantId === tenantId ? r : null)));
    if (!row) throw new AppError("NOT_FOUND", "No such fit");
    return c.json(toFit(row));
  })
  .post("/pairs", calibrationDocs.uploadPairs, validate("json", pairsSchema), async (c) => {
    const { home: db, clock } = c.get("services");
    const { tenantId, keyId } = c.get("principal");
    const pairs = c.req.valid("json").pairs.map((p) => ({ ...p, label: p.label as "paraphrase" | "related" | "unrelated" }));
    const stored = await storeUploadedPairs(db, tenantId, pairs, keyId, clock.now());
    return c.json({ stored, total: await countUploadedPairs(db, tenantId) });
  })
  .delete("/pairs", calibrationDocs.deletePairs, async (c) => {
    const { home: db } = c.get("services");
    return c.json({ deleted: await deleteUploadedPairs(db, c.get("principal").tenantId) });
  });
