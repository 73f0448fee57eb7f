// What `npm run calibrate -- --repeat` needs from src/: the product's own lexical similarity and
// the shipped global calibration (bundled with esbuild, so the measurement uses the real code).
export { calibrationFor } from "../../src/calibration/registry";
export { lexicalSimilarity, lexicalTerms } from "../../src/ranking/lexical";
export { lexicalEvidence, repeatTerms } from "../../src/ranking/repeat";
export { detectQuestionType } from "../../src/text/question-type";
