/**
 * The calibrations shipped with Recall, by model id. Workers cannot read files at run time, so
 * tables are imported statically; `npm run calibrate` writes them to src/core/scale/tables/.
 */
import { type Calibration, parseCalibration } from "../calibration/calibration";
import { parseRepeatModel, type RepeatModel } from "../ranking/repeat";
import useLite512 from "./tables/use-lite-512.json";
import useLite512Repeat from "./tables/use-lite-512.repeat.json";
import useLite512SameQuestion from "./tables/use-lite-512.same-question.json";
import { parseSameQuestionModel, type SameQuestionModel } from "../decisions/same-question";
import type { Scale } from "./scale";

const calibrations: Record<string, Calibration> = Object.fromEntries(
  [useLite512].map((table) => {
    const calibration = parseCalibration(table);
    return [calibration.model, calibration];
  }),
);

const repeatModels: Record<string, RepeatModel> = Object.fromEntries(
  [useLite512Repeat].map((table) => {
    const model = parseRepeatModel(table);
    return [model.model, model];
  }),
);

const sameQuestionModels: Record<string, SameQuestionModel> = Object.fromEntries(
  [useLite512SameQuestion].map((table) => {
    const model = parseSameQuestionModel(table);
    return [model.model, model];
  }),
);

/** The same-question decision's fitted thresholds for a model (src/core/decisions), or null: then it uses UNFITTED. */
export function sameQuestionModelFor(model: string): SameQuestionModel | null {
  return sameQuestionModels[model] ?? null;
}

/**
 * The show's repeat decision for a model (src/core/ranking/repeat.ts), or null: then the show compares
 * the global calibration of the cosine, as before the repeat fit.
 */
export function repeatModelFor(model: string): RepeatModel | null {
  return repeatModels[model] ?? null;
}

/** Every shipped repeat table (for the tests' sweep). */
export function shippedRepeatModels(): readonly RepeatModel[] {
  return Object.values(repeatModels);
}

/** Every shipped calibration (for the tests' sweep over all tables). */
export function shippedCalibrations(): readonly Calibration[] {
  return Object.values(calibrations);
}

/**
 * Why the Workers AI models ship without a table: they cannot be embedded offline, so no labelled
 * pairs were scored with them here. A deployment fits its own scale (POST /v1/admin/calibration/fit,
 * docs/guides/calibration.md) or ships one fitted through the REST API (`npm run calibrate -- --model`).
 * Until then their thresholds compare raw cosine, which for BGE models sits high (unrelated pairs
 * often score 0.5–0.7), so the seeds' thresholds are looser than intended.
 */
const WORKERS_AI_REASON =
  "no fit yet for this Workers AI model: run POST /v1/admin/calibration/fit (docs/guides/calibration.md); thresholds compare raw cosine";

/** The calibration for a model, or null: then similarity is raw cosine and /healthz says `calibrated: false`. */
export function calibrationFor(model: string): Calibration | null {
  return calibrations[model] ?? null;
}

const shippedScales = new Map<string, Scale>();

/** The scale shipped for a model: its tables in src/core/scale/tables/, or raw cosine (flagged) without. */
export function shippedScale(model: string): Scale {
  let scale = shippedScales.get(model);
  if (!scale) {
    const calibration = calibrationFor(model);
    scale = {
      model,
      calibration,
      repeat: repeatModelFor(model),
      decision: sameQuestionModelFor(model),
      source: calibration ? { kind: "shipped" } : { kind: "raw", reason: uncalibratedReason(model) },
    };
    shippedScales.set(model, scale);
  }
  return scale;
}

export function uncalibratedReason(model: string): string {
  if (model.startsWith("@cf/")) return WORKERS_AI_REASON;
  return "no fit yet for this model: run POST /v1/admin/calibration/fit or `npm run calibrate`; thresholds compare raw cosine";
}
