/**
 * A self-fit as a job that runs in steps, so that it fits within a Worker invocation's CPU and
 * subrequest limits whatever the size of the knowledge base: every call of POST
 * /v1/admin/calibration/fit (and the five-minute cron) goes on where the last one stopped, for at
 * most a time budget. Its phases:
 *
 *   collect   the sources' labelled pairs into calibration_fit_pairs (sources.ts), the knowledge
 *             base FAQS_PER_STEP FAQs at a time, measured on the vectors already stored;
 *   measure   the pairs not measured yet, MEASURE_BATCH at a time, through the deployed embedder
 *             (its KV cache makes a repeated text free);
 *   fit       fit-scale.ts on every pair; the table is stored as a new version, or refused with the
 *             reason. It goes in force only when it decides the shipped reference pairs as a person
 *             would (reference.ts); else it is kept as a candidate an admin can promote. The pairs
 *             are then deleted.
 *
 * One fit runs per scope and model (a unique index): starting another returns the running one.
 */
import { and, asc, desc, eq, isNotNull, isNull } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import { calibrationFitPairs, calibrationFits, type CalibrationFitPhase } from "../../platform/db/schema/calibration";
import { ConstraintViolation, StorageUnavailable } from "../../platform/db/errors";
import { EmbeddingError } from "../../platform/ports/embedder";
import { faqStore } from "../faqs/select";
import { newId } from "../../core/base/ids";
import type { Services } from "../../platform/ports/services";
import { cosine } from "../../core/ranking/cosine";
import { pipelineStore } from "../tickets/select";
import { forgetScales, scaleInForce } from "../calibration/in-force";
import { shippedScale } from "../../core/scale/registry";
import { type FitReport, fitScale, type MeasuredPair } from "./fit-scale";
import { labelCount } from "./labels";
import { collectFaqPairs, collectReviewPairs, type FaqsCursor, type PairRow, type Source } from "./sources";
import { checkReference, REFERENCE_MIN_AGREEMENT } from "./reference";
import { DEPLOYMENT, scaleFromStored, storeVersion } from "../calibration/tables-store";
import { readUploadedPairs } from "./uploaded";

const cf = calibrationFits;
const fp = calibrationFitPairs;
export type FitRow = typeof cf.$inferSelect;

/** Pairs measured per embedding round. */
export const MEASURE_BATCH = 100;
/** A fit stops collecting beyond this many pairs. */
export const MAX_FIT_PAIRS = 20_000;
/** How long one call works on a fit before it answers (the client, or the cron, calls again). */
export const STEP_BUDGET_MS = 8_000;
/**
 * Steps one call takes at most: a knowledge-base step reads FAQS_PER_STEP FAQs with four store
 * queries each, so 4 steps stay well inside the 1,000 D1 queries a paid plan's invocation may make.
 */
export const MAX_STEPS_PER_CALL = 4;
/** D1 binds at most 100 parameters per statement: 7 per pair. */
const PAIRS_PER_INSERT = 14;

interface CollectCursor {
  /** Index into the fit's sources. */
  source: number;
  faqs?: FaqsCursor;
}

/** Starts a fit, or returns the one already running for the scope and model. */
export async function startFit(
  services: Services,
  args: { scope: string; tenantId: string; model: string; sources: readonly Source[]; by: string },
): Promise<{ fit: FitRow; created: boolean }> {
  const running = await runningFit(services.home, args.scope, args.model);
  if (running) return { fit: running, created: false };
  const now = services.clock.now();
  const row: FitRow = {
    id: newId("fit"),
    scope: args.scope,
    tenantId: args.tenantId,
    model: args.model,
    status: "running",
    phase: "collect",
    sources: [...args.sources],
    cursor: { source: 0 },
    pairs: 0,
    measured: 0,
    reason: null,
    version: null,
    report: null,
    createdBy: args.by,
    createdAt: now,
    updatedAt: now,
  };
  try {
    await drizzle(services.home).insert(cf).values(row);
    return { fit: row, created: true };
  } catch (error) {
    // Another call started one between the check and the insert: that one runs.
    const other = error instanceof ConstraintViolation ? await runningFit(services.home, args.scope, args.model) : null;
    if (!other) throw error;
    return { fit: other, created: false };
  }
}

export async function runningFit(db: D1Database, scope: string, model: string): Promise<FitRow | null> {
  const [row] = await drizzle(db)
    .select()
    .from(cf)
    .where(and(eq(cf.scope, scope), eq(cf.model, model), eq(cf.status, "running")));
  return row ?? null;
}

export async function getFit(db: D1Database, scope: string, id: string): Promise<FitRow | null> {
  const [row] = await drizzle(db)
    .select()
    .from(cf)
    .where(and(eq(cf.scope, scope), eq(cf.id, id)));
  return row ?? null;
}

export async function listFits(db: D1Database, scope: string, limit: number): Promise<FitRow[]> {
  return drizzle(db).select().from(cf).where(eq(cf.scope, scope)).orderBy(desc(cf.createdAt)).limit(limit);
}

/** Every running fit (the cron advances them). */
export async function runningFits(db: D1Database): Promise<FitRow[]> {
  return drizzle(db).select().from(cf).where(eq(cf.status, "running")).orderBy(asc(cf.updatedAt)).limit(20);
}

/**
 * Works on a running fit for at most `budgetMs` and returns it as it stands. A fault of the
 * embedder or of storage leaves it running (the next call goes on); any other error fails it.
 */
export async function advanceFit(services: Services, fit: FitRow, budgetMs = STEP_BUDGET_MS): Promise<FitRow> {
  const started = Date.now();
  let current = fit;
  for (let steps = 0; current.status === "running" && steps < MAX_STEPS_PER_CALL && Date.now() - started < budgetMs; steps++) {
    try {
      current = await step(services, current);
    } catch (error) {
      if (error instanceof EmbeddingError || error instanceof StorageUnavailable) {
        services.log.warn("calibration_fit_paused", { fitId: fit.id, phase: current.phase, error: error.name });
        return current;
      }
      services.log.error("calibration_fit_failed", {
        fitId: fit.id,
        phase: current.phase,
        error: error instanceof Error ? error.name : "unknown",
      });
      return save(services, current, { status: "failed", reason: `the ${current.phase} step failed unexpectedly; start a new fit` });
    }
  }
  return current;
}

async function step(services: Services, fit: FitRow): Promise<FitRow> {
  switch (fit.phase) {
    case "collect":
      return collect(services, fit);
    case "measure":
      return measure(services, fit);
    case "fit":
      return finish(services, fit);
  }
}

async function collect(services: Services, fit: FitRow): Promise<FitRow> {
  const cursor = fit.cursor as unknown as CollectCursor;
  const source = fit.sources[cursor.source] as Source | undefined;
  if (!source || fit.pairs >= MAX_FIT_PAIRS) return save(services, fit, { phase: "measure" as CalibrationFitPhase, cursor: {} });
  let pairs: PairRow[];
  let next: CollectCursor = { source: cursor.source + 1 };
  if (source === "faqs") {
    const got = await collectFaqPairs(faqStore(services), services.embedder, fit.tenantId, cursor.faqs ?? { beforeSeq: null, seen: 0 });
    pairs = got.pairs;
    if (got.cursor.beforeSeq !== null) next = { source: cursor.source, faqs: got.cursor };
  } else if (source === "reviews") {
    pairs = await collectReviewPairs(pipelineStore(services), fit.tenantId);
  } else {
    pairs = await readUploadedPairs(services.home, fit.tenantId);
  }
  pairs = pairs.slice(0, MAX_FIT_PAIRS - fit.pairs);
  await insertPairs(services.home, fit.id, pairs);
  return save(services, fit, {
    cursor: next as unknown as Record<string, unknown>,
    pairs: fit.pairs + pairs.length,
    measured: fit.measured + pairs.filter((p) => p.raw !== null).length,
  });
}

async function measure(services: Services, fit: FitRow): Promise<FitRow> {
  const { home: db, embedder } = services;
  const rows = await drizzle(db)
    .select({ seq: fp.seq, a: fp.a, b: fp.b })
    .from(fp)
    .where(and(eq(fp.fitId, fit.id), isNull(fp.raw)))
    .orderBy(asc(fp.seq))
    .limit(MEASURE_BATCH);
  if (rows.length === 0) return save(services, fit, { phase: "fit" });
  // A text the model cannot embed has no cosine to calibrate: its pair leaves the fit.
  const usable = rows.filter((r) => embedder.canEmbed(r.a) && embedder.canEmbed(r.b));
  const texts = [...new Set(usable.flatMap((r) => [r.a, r.b]))];
  const vectors = texts.length ? await embedder.embed(texts) : [];
  const byText = new Map(texts.map((t, i) => [t, vectors[i]!]));
  const d = drizzle(db);
  const writes = rows.map((r) =>
    usable.includes(r)
      ? d
          .update(fp)
          .set({ raw: cosine(byText.get(r.a)!, byText.get(r.b)!) })
          .where(eq(fp.seq, r.seq))
      : d.delete(fp).where(eq(fp.seq, r.seq)),
  );
  await d.batch(writes as [(typeof writes)[number], ...(typeof writes)[number][]]);
  return save(services, fit, { measured: fit.measured + usable.length, pairs: fit.pairs - (rows.length - usable.length) });
}

async function finish(services: Services, fit: FitRow): Promise<FitRow> {
  const { home: db, clock } = services;
  const rows = await drizzle(db)
    .select()
    .from(fp)
    .where(and(eq(fp.fitId, fit.id), isNotNull(fp.raw)));
  const pairs: MeasuredPair[] = rows.map((r) => ({ source: r.source, group: r.groupKey, label: r.label, a: r.a, b: r.b, raw: r.raw! }));
  // The fit must beat the scale the scope would have without any fit of its own: an earlier self-fit
  // has seen these labels, so its agreement with them is not held out.
  const baseline =
    fit.scope === DEPLOYMENT ? shippedScale(fit.model) : await scaleInForce(db, DEPLOYMENT, fit.model, clock.now(), services.log);
  const outcome = fitScale(pairs, baseline);
  // The labels held now: the nightly cron refits when they have grown enough since (cron.ts).
  const report = { ...outcome.report, labels: await labelCount(services, fit.tenantId) } as unknown as Record<string, unknown>;
  let done: FitRow;
  if (outcome.stored) {
    // In force only when it decides the pairs whose answer is not in doubt as a person would; else a candidate (reference.ts).
    const reference = await checkReference(
      services.embedder,
      scaleFromStored(
        { scope: fit.scope, model: fit.model, version: 0, tables: outcome.tables as never, createdAt: clock.now() },
        shippedScale(fit.model),
      ),
    );
    const active = reference.agreement >= REFERENCE_MIN_AGREEMENT;
    report.reference = {
      ...reference,
      inForce: active,
      ...(active
        ? {}
        : {
            note: `a candidate, not in force: it decided ${reference.agreement} of the reference pairs right (at least ${REFERENCE_MIN_AGREEMENT} needed); an admin can compare it and promote it (POST /v1/admin/calibration/rollback/:version)`,
          }),
    };
    const version = await storeVersion(
      db,
      {
        scope: fit.scope,
        model: fit.model,
        tables: outcome.tables,
        report,
        fitId: fit.id,
        createdBy: fit.createdBy,
        createdAt: clock.now(),
      },
      { active },
    );
    forgetScales();
    done = await save(services, fit, { status: "stored", version, report });
  } else {
    done = await save(services, fit, { status: "refused", reason: outcome.reason, report });
  }
  await drizzle(db).delete(fp).where(eq(fp.fitId, fit.id));
  services.log.info("calibration_fit_done", {
    fitId: fit.id,
    scope: fit.scope === DEPLOYMENT ? "deployment" : "tenant",
    status: done.status,
    version: done.version,
    pairs: pairs.length,
  });
  return done;
}

async function insertPairs(db: D1Database, fitId: string, pairs: readonly PairRow[]): Promise<void> {
  if (pairs.length === 0) return;
  const d = drizzle(db);
  const inserts = [];
  for (let i = 0; i < pairs.length; i += PAIRS_PER_INSERT) {
    inserts.push(d.insert(fp).values(pairs.slice(i, i + PAIRS_PER_INSERT).map((p) => ({ fitId, ...p }))));
  }
  await d.batch(inserts as [(typeof inserts)[number], ...(typeof inserts)[number][]]);
}

async function save(services: Services, fit: FitRow, change: Partial<FitRow>): Promise<FitRow> {
  const next = { ...fit, ...change, updatedAt: services.clock.now() };
  const { id: _id, ...values } = next;
  await drizzle(services.home).update(cf).set(values).where(eq(cf.id, fit.id));
  return next;
}

export type { FitReport };
