// What the show-rank benchmark needs from src/: the pure pipeline (no Worker-only imports).
export { calibrationFor, repeatModelFor } from "../../src/core/scale/registry";
export { DEFAULT_NOVELTY_CONFIG } from "../../src/core/novelty/novelty-config";
export { lexicalTerms } from "../../src/core/novelty/novelty";
export { rankCandidates } from "../../src/core/novelty/novelty-rank";
