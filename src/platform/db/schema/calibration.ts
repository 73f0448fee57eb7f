/**
 * The similarity scales a deployment fits for itself (src/features/self-fit/): the fitted tables,
 * versioned per scope (a tenant id, or "*" for the deployment) and model; the fit jobs, which run
 * in steps across invocations; their measured pairs; and the labelled pairs an admin uploads.
 * Times are epoch milliseconds.
 */
import { sql } from "drizzle-orm";
import { index, integer, real, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

export const calibrationFitStatuses = ["running", "stored", "refused", "failed"] as const;
export type CalibrationFitStatus = (typeof calibrationFitStatuses)[number];
export const calibrationFitPhases = ["collect", "measure", "fit"] as const;
export type CalibrationFitPhase = (typeof calibrationFitPhases)[number];
export const pairLabels = ["paraphrase", "related", "unrelated"] as const;

/** One fitted scale; at most one active per (scope, model): the one in force. */
export const calibrationTables = sqliteTable(
  "calibration_tables",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    /** The tenant id, or "*": the deployment's, for every tenant without one of its own. */
    scope: text("scope").notNull(),
    model: text("model").notNull(),
    version: integer("version").notNull(),
    /** The calibration and the decision's thresholds (src/features/calibration/tables-store.ts). */
    tables: text("tables", { mode: "json" }).$type<Record<string, unknown>>().notNull(),
    /** The fit's figures: pair counts by source, AUC, precision/recall at the seeds' lines, intervals. */
    report: text("report", { mode: "json" }).$type<Record<string, unknown>>().notNull(),
    active: integer("active", { mode: "boolean" }).notNull().default(false),
    fitId: text("fit_id").notNull(),
    createdBy: text("created_by").notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [
    uniqueIndex("calibration_tables_version_idx").on(t.scope, t.model, t.version),
    uniqueIndex("calibration_tables_active_idx")
      .on(t.scope, t.model)
      .where(sql`active = 1`),
  ],
);

/** A fit in progress or done; one running per (scope, model). */
export const calibrationFits = sqliteTable(
  "calibration_fits",
  {
    id: text("id").primaryKey(),
    scope: text("scope").notNull(),
    /** The tenant whose pairs the fit reads (for the deployment's: the operator's). */
    tenantId: text("tenant_id").notNull(),
    model: text("model").notNull(),
    status: text("status", { enum: calibrationFitStatuses }).notNull().default("running"),
    phase: text("phase", { enum: calibrationFitPhases }).notNull().default("collect"),
    sources: text("sources", { mode: "json" }).$type<string[]>().notNull(),
    /** Where the current phase goes on (collect: a source and its position). */
    cursor: text("cursor", { mode: "json" })
      .$type<Record<string, unknown>>()
      .notNull()
      .default(sql`'{}'`),
    pairs: integer("pairs").notNull().default(0),
    measured: integer("measured").notNull().default(0),
    /** Why a fit was refused or failed; the stored version when it was stored. */
    reason: text("reason"),
    version: integer("version"),
    report: text("report", { mode: "json" }).$type<Record<string, unknown>>(),
    createdBy: text("created_by").notNull(),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [
    index("calibration_fits_scope_idx").on(t.scope, t.createdAt),
    uniqueIndex("calibration_fits_running_idx")
      .on(t.scope, t.model)
      .where(sql`status = 'running'`),
  ],
);

/** A labelled pair of a fit; `raw` is the model's cosine once measured. Deleted when the fit ends. */
export const calibrationFitPairs = sqliteTable(
  "calibration_fit_pairs",
  {
    seq: integer("seq").primaryKey({ autoIncrement: true }),
    fitId: text("fit_id").notNull(),
    source: text("source").notNull(),
    /** Pairs about one question share a group: folds and the bootstrap keep them together. */
    groupKey: text("group_key").notNull(),
    label: text("label", { enum: pairLabels }).notNull(),
    a: text("a").notNull(),
    b: text("b").notNull(),
    raw: real("raw"),
  },
  (t) => [index("calibration_fit_pairs_fit_idx").on(t.fitId, t.seq)],
);

/** Labelled pairs an admin uploaded (JSONL `{a, b, label}`); the same pair again replaces its label. */
export const calibrationLabelPairs = sqliteTable(
  "calibration_label_pairs",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    tenantId: text("tenant_id").notNull(),
    a: text("a").notNull(),
    b: text("b").notNull(),
    label: text("label", { enum: pairLabels }).notNull(),
    createdBy: text("created_by").notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [uniqueIndex("calibration_label_pairs_pair_idx").on(t.tenantId, t.a, t.b)],
);
