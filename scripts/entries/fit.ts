// The fitting math the offline scripts share with the Worker's own fit (bundled with esbuild, so
// `npm run calibrate` and `npm run decisions` fit with the shipped code).
export { bandOf, PARAPHRASE_MIN, RELATED_MIN } from "../../src/core/calibration/bands";
export * from "../../src/core/calibration/fit";
export * from "../../src/core/decisions/fit";
export { cosine } from "../../src/core/ranking/cosine";
