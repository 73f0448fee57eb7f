// What `npm run decisions` needs from src/: the product's own decision, alignment, contrasts and
// measures (bundled with esbuild, so the measurement runs the shipped code).
export { calibrate } from "../../src/core/calibration/calibration";
export { calibrationFor, repeatModelFor } from "../../src/core/scale/registry";
export { decideSameQuestion, mayActAlone } from "../../src/core/decisions/same-question";
export { decidePair } from "../../src/core/scale/pair";
export { alignQuestions } from "../../src/core/decisions/align";
export { findContrasts } from "../../src/core/decisions/contrasts";
export { FEATURES, pairFeatures } from "../../src/core/decisions/logistic";
export { shippedScale } from "../../src/core/scale/registry";
export { lexicalSimilarity, lexicalTerms } from "../../src/core/ranking/lexical";
export { lexicalEvidence, repeatSimilarity } from "../../src/core/ranking/repeat";
