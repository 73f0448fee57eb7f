// What the show-rank benchmark needs from src/: the pure pipeline (no Worker-only imports).
export { calibrationFor, repeatModelFor } from "../../src/calibration/registry";
export { DEFAULT_NOVELTY_CONFIG } from "../../src/ranking/novelty-config";
export { lexicalTerms } from "../../src/ranking/novelty";
export { rankCandidates } from "../../src/ranking/novelty-rank";
