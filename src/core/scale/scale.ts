/**
 * A model's similarity scale: everything a threshold reads to mean the same on every embedding
 * model — the calibration of the raw cosine, the show's repeat map and the same-question decision's
 * thresholds — and where they came from. Precedence (in-force.ts): the tenant's own fit → the
 * deployment's fit → the table shipped for the model → raw cosine (flagged).
 */
import type { Calibration } from "../calibration/calibration";
import type { RepeatModel } from "../ranking/repeat";
import type { SameQuestionModel } from "../decisions/same-question";

export type ScaleSource =
  /** Fitted by the deployed Worker on a tenant's own labelled pairs, or the deployment's (src/features/self-fit/). */
  | { kind: "tenant" | "deployment"; version: number; fittedAt: string }
  /** A table shipped in src/core/scale/tables/ (`npm run calibrate`, `npm run decisions`). */
  | { kind: "shipped" }
  /** No table: thresholds compare raw cosine. */
  | { kind: "raw"; reason: string };

export interface Scale {
  /** The embedder model id the tables belong to. */
  model: string;
  calibration: Calibration | null;
  repeat: RepeatModel | null;
  decision: SameQuestionModel | null;
  source: ScaleSource;
}

export type ScaleStatus =
  | { calibrated: true; model: string; method: string; fittedOn: string; source: ScaleSource }
  | { calibrated: false; model: string; reason: string; source: ScaleSource };

/** What /healthz and GET /v1/admin/calibration report about the scale in force. */
export function scaleStatus(scale: Scale): ScaleStatus {
  const { model, calibration, source } = scale;
  if (calibration) return { calibrated: true, model, method: calibration.method, fittedOn: calibration.fittedOn, source };
  return { calibrated: false, model, reason: source.kind === "raw" ? source.reason : "no calibration", source };
}
