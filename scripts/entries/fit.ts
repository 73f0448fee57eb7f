// The fitting math the offline scripts share with the Worker's own fit (bundled with esbuild, so
// `npm run calibrate` and `npm run decisions` fit with the shipped code).
export { bandOf, PARAPHRASE_MIN, RELATED_MIN } from "../../src/calibration/bands";
export * from "../../src/calibration/fit";
export * from "../../src/decisions/fit";
export { cosine } from "../../src/ranking/cosine";
