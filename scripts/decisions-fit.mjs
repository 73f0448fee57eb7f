// The math of `npm run decisions`: src/core/decisions/fit.ts (the same code the Worker fits with), bundled.
import { decisionFit } from "./calibration-fit.mjs";

export const {
  TARGET_PRECISION,
  UNRELATED_SHOWN_MAX,
  wrongAllowed,
  fitSame,
  fitRelatedMin,
  isUnrelated,
  fitProbability,
  contrastConfidence,
  fitThresholds,
  crossValidatedThresholds,
  actionMetrics,
  fitActMin,
  fitDecisionModel,
} = decisionFit;
