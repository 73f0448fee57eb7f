/** Response schemas of the calibration routes (src/http/routes/calibration.ts). */
import { z } from "zod";
import { describe } from "../openapi/describe";
import { isoTime, obj } from "./common";

export const ScaleSourceSchema = z
  .union([
    obj({ kind: z.enum(["tenant", "deployment"]), version: z.number().int(), fittedAt: isoTime }),
    obj({ kind: z.literal("shipped") }),
    obj({ kind: z.literal("raw"), reason: z.string() }),
  ])
  .describe("Where the scale in force comes from: the tenant's fit, the deployment's, the table shipped for the model, or raw cosine");

export const ScaleStatusSchema = z.union([
  obj({ calibrated: z.literal(true), model: z.string(), method: z.string(), fittedOn: z.string(), source: ScaleSourceSchema }),
  obj({ calibrated: z.literal(false), model: z.string(), reason: z.string(), source: ScaleSourceSchema }),
]);

const report = z
  .record(z.string(), z.unknown())
  .describe(
    "The fit's figures: pairs by source, AUC, band agreement, each seed line's precision/recall, the decision's thresholds; with 95 % intervals",
  );

const Fit = obj({
  id: z.string(),
  scope: z.enum(["tenant", "deployment"]),
  model: z.string(),
  status: z.enum(["running", "stored", "refused", "failed"]),
  phase: z.enum(["collect", "measure", "fit"]),
  sources: z.array(z.string()),
  progress: obj({ pairs: z.number().int(), measured: z.number().int() }),
  reason: z.string().nullable().describe("Why it was refused or failed"),
  version: z.number().int().nullable().describe("The version stored"),
  report: report.nullable(),
  createdAt: isoTime,
  updatedAt: isoTime,
}).meta({ id: "CalibrationFit" });

const VersionSummary = obj({
  version: z.number().int(),
  active: z.boolean(),
  createdAt: isoTime,
  fittedOn: z.string(),
  pairs: z.number().int(),
  agreement: z.number().nullable().describe("Band agreement (macro) on held-out pairs"),
  decision: obj({
    sameMin: z.number(),
    sharedMin: z.number(),
    relatedMin: z.number(),
    precision: z.number().nullable(),
    recall: z.number().nullable(),
  }),
});

const Overview = obj({
  model: z.string(),
  inForce: ScaleStatusSchema,
  precedence: z.array(
    obj({ level: z.enum(["tenant", "deployment", "shipped", "raw"]), available: z.boolean(), version: z.number().int().nullable() }),
  ),
  runningFit: Fit.nullable(),
  recentFits: z.array(Fit),
});

export const calibrationDocs = {
  overview: describe({
    tag: "Calibration",
    summary: "The scale in force",
    description:
      "Which similarity scale the tenant's thresholds read, by precedence: the tenant's own fit → the deployment's fit → the table shipped for the model → raw cosine (flagged); the running fit and the recent ones.",
    responses: { 200: Overview },
  }),
  versions: describe({
    tag: "Calibration",
    summary: "List the fitted versions",
    description:
      "The tenant's (or, with `scope=deployment`, the deployment's) fitted versions for the active model, newest first, with their key figures.",
    responses: { 200: obj({ scope: z.enum(["tenant", "deployment"]), model: z.string(), versions: z.array(VersionSummary) }) },
  }),
  version: describe({
    tag: "Calibration",
    summary: "Read one version",
    description: "A fitted version with its tables (knots, thresholds) and its whole report.",
    responses: { 200: obj({ ...VersionSummary.shape, tables: z.record(z.string(), z.unknown()), report }) },
    errors: { 404: "no such version" },
  }),
  compare: describe({
    tag: "Calibration",
    summary: "Compare two versions",
    description:
      "Two versions' key figures side by side, and how far apart their maps are (the largest difference of calibrated similarity over raw cosine −1..1).",
    responses: { 200: obj({ from: VersionSummary, to: VersionSummary, maxSimilarityDifference: z.number() }) },
    errors: { 404: "no such version" },
  }),
  rollback: describe({
    tag: "Calibration",
    summary: "Make an older version the one in force",
    description: "The version becomes active at once in this isolate and within a minute in every other.",
    responses: { 200: obj({ scope: z.enum(["tenant", "deployment"]), model: z.string(), active: z.number().int() }) },
    errors: { 404: "no such version" },
  }),
  fit: describe({
    tag: "Calibration",
    summary: "Fit the scale on the tenant's own labels",
    description:
      "Starts a fit, or goes on with the running one, for up to ~8 s; call again (or let the five-minute cron) until `status` is not `running`. 202 while it runs; 200 with the stored version or the reason it was refused. `sources`: faqs (variants ↔ their FAQ; nearest other FAQs as hard negatives), reviews (approved and rejected MERGE items), uploaded (POST …/pairs). `scope: deployment` (the operator's tenant only) stores the fit for every tenant without its own.",
    responses: { 200: Fit, 202: Fit },
    errors: { 403: "FORBIDDEN: only the operator's tenant (OPERATOR_TENANT) fits the deployment's scale" },
    requestExample: { sources: ["faqs", "reviews", "uploaded"] },
  }),
  getFit: describe({
    tag: "Calibration",
    summary: "Read a fit",
    description: "A fit's status, progress and, once done, its report.",
    responses: { 200: Fit },
    errors: { 404: "no such fit" },
  }),
  uploadPairs: describe({
    tag: "Calibration",
    summary: "Upload labelled pairs",
    description:
      "Up to 1,000 pairs `{a, b, label}` per call (label: paraphrase | related | unrelated; `same` means paraphrase, `different` related); the same pair again replaces its label. The CLI (`recall calibrate --pairs FILE.jsonl`) sends a JSONL file in such chunks.",
    responses: { 200: obj({ stored: z.number().int(), total: z.number().int() }) },
    requestExample: { pairs: [{ a: "How do I reset my password?", b: "I forgot my password", label: "paraphrase" }] },
  }),
  deletePairs: describe({
    tag: "Calibration",
    summary: "Delete the uploaded pairs",
    description: "All of the tenant's uploaded pairs; fitted versions keep their figures.",
    responses: { 200: obj({ deleted: z.number().int() }) },
  }),
};
