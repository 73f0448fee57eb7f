/**
 * The calibrations shipped with Recall, by model id. Workers cannot read files at run time, so
 * tables are imported statically; `npm run calibrate` writes them to src/calibration/tables/.
 */
import type { Calibration } from "./calibration";

const calibrations: Record<string, Calibration> = {};

/** The calibration for a model, or null: then similarity is raw cosine and /healthz says `calibrated: false`. */
export function calibrationFor(model: string): Calibration | null {
  return calibrations[model] ?? null;
}
