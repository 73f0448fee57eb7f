/**
 * The calibrations shipped with Recall, by model id. Workers cannot read files at run time, so
 * tables are imported statically; `npm run calibrate` writes them to src/calibration/tables/.
 */
import { type Calibration, parseCalibration } from "./calibration";
import { parseRepeatModel, type RepeatModel } from "../ranking/repeat";
import useLite512 from "./tables/use-lite-512.json";
import useLite512Repeat from "./tables/use-lite-512.repeat.json";
import useLite512SameQuestion from "./tables/use-lite-512.same-question.json";
import { parseSameQuestionModel, type SameQuestionModel } from "../decisions/same-question";
import { rootLogger } from "../log";

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

/** The same-question decision's fitted thresholds for a model (src/decisions), or null: then it uses UNFITTED. */
export function sameQuestionModelFor(model: string): SameQuestionModel | null {
  return sameQuestionModels[model] ?? null;
}

/**
 * The show's repeat decision for a model (src/ranking/repeat.ts), or null: then the show compares
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
 * Models that knowingly run on raw cosine, and why (`/healthz` shows the reason). The Workers AI
 * models cannot be embedded offline, so no labeled pairs have been scored with them yet: a
 * calibration for them has to be fitted on embeddings taken in production (docs/guides/calibration.md,
 * "Calibrating a production model"). Until then their thresholds compare raw cosine, which for BGE models sits high
 * (unrelated pairs often score 0.5–0.7), so the seeds' thresholds are looser than intended.
 */
const RAW_REASONS: Record<string, string> = {
  "@cf/baai/bge-m3":
    "no production fit yet (Workers AI is remote-only, so no pairs were embedded with it); thresholds compare raw cosine",
  "@cf/baai/bge-base-en-v1.5":
    "no production fit yet (Workers AI is remote-only, so no pairs were embedded with it); thresholds compare raw cosine",
  "@cf/baai/bge-small-en-v1.5":
    "no production fit yet (Workers AI is remote-only, so no pairs were embedded with it); thresholds compare raw cosine",
};

/** The calibration for a model, or null: then similarity is raw cosine and /healthz says `calibrated: false`. */
export function calibrationFor(model: string): Calibration | null {
  const calibration = calibrations[model] ?? null;
  if (!calibration) warnUncalibrated(model);
  return calibration;
}

export type CalibrationStatus =
  | { calibrated: true; model: string; method: string; fittedOn: string }
  | { calibrated: false; model: string; reason: string };

/** What /healthz reports about a model's calibration. */
export function calibrationStatus(model: string, calibration: Calibration | null): CalibrationStatus {
  if (calibration) return { calibrated: true, model: calibration.model, method: calibration.method, fittedOn: calibration.fittedOn };
  return { calibrated: false, model, reason: uncalibratedReason(model) };
}

export function uncalibratedReason(model: string): string {
  return RAW_REASONS[model] ?? "no calibration table for this model (run `npm run calibrate`); thresholds compare raw cosine";
}

const warned = new Set<string>();

/** One warning log line per model per isolate: thresholds mean something else on raw cosine. */
function warnUncalibrated(model: string): void {
  if (warned.has(model)) return;
  warned.add(model);
  rootLogger.warn("similarity_uncalibrated", { model, calibrated: false, reason: uncalibratedReason(model) });
}
