// The fitting math of `npm run calibrate` and `npm run decisions`: src/core/calibration/fit.ts and
// src/core/decisions/fit.ts (the same code the Worker fits with, bundled here), the Worker's cosine, and
// one helper only the offline scripts need. Unit-tested in test/unit/calibration.test.ts and same-question.test.ts.
import { importTs } from "../bench/support/bundle.mjs";

const fit = await importTs(new URL("./entries/fit.ts", import.meta.url));
export const {
  LABELS,
  PARAPHRASE_MIN,
  RELATED_MIN,
  UNRELATED_MEDIAN_TARGET,
  PARAPHRASE_MEDIAN_TARGET,
  bandOf,
  isotonic,
  boundary,
  median,
  fitKnots,
  applyKnots,
  agreement,
  auc,
  hash32,
  rng,
  bootstrap,
  foldOf,
  cosine,
} = fit;
/** The decision fit's exports (scripts/decisions-fit.mjs). */
export const decisionFit = fit;

/** CJK ideographs, kana or hangul: text an English-only model cannot embed meaningfully. */
export function hasCjk(text) {
  return /[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]/u.test(text);
}
