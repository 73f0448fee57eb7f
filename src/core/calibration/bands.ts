/**
 * The bands of the calibrated scale (the seeds' scale), used to fit and check calibrations:
 * a labeled pair agrees with a calibration when its similarity falls in its label's band. They are
 * seed 004's show-memory lines (block > 0.80, boost < 0.60), which the other seeds' lines sit in.
 * scripts/calibration-fit.mjs holds the same numbers for `npm run calibrate` (a unit test checks).
 */
export const PARAPHRASE_MIN = 0.8;
export const RELATED_MIN = 0.6;

export type Band = "paraphrase" | "related" | "unrelated";

/** paraphrase ≥ 0.80 · related 0.60–0.80 · unrelated < 0.60 (calibrated similarity). */
export function bandOf(similarity: number): Band {
  if (similarity >= PARAPHRASE_MIN) return "paraphrase";
  if (similarity >= RELATED_MIN) return "related";
  return "unrelated";
}
