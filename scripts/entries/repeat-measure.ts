// What `npm run calibrate -- --repeat` needs from src/: the product's own lexical similarity and
// the shipped global calibration (bundled with esbuild, so the measurement uses the real code).
export { calibrationFor } from "../../src/core/scale/registry";
export { lexicalSimilarity, lexicalTerms } from "../../src/core/ranking/lexical";
export { lexicalEvidence, repeatTerms } from "../../src/core/ranking/repeat";
export { detectQuestionType } from "../../src/core/text/question-type";
