// What `npm run decisions` needs from src/: the product's own decision, alignment, contrasts and
// measures (bundled with esbuild, so the measurement runs the shipped code).
export { calibrate } from "../../src/calibration/calibration";
export { calibrationFor, repeatModelFor } from "../../src/calibration/registry";
export { decideSameQuestion } from "../../src/decisions/same-question";
export { decidePair } from "../../src/decisions/pair";
export { alignQuestions } from "../../src/decisions/align";
export { findContrasts } from "../../src/decisions/contrasts";
export { FEATURES, pairFeatures } from "../../src/decisions/logistic";
export { shippedScale } from "../../src/calibration/registry";
export { lexicalSimilarity, lexicalTerms } from "../../src/ranking/lexical";
export { lexicalEvidence, repeatSimilarity } from "../../src/ranking/repeat";
