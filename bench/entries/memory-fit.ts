// What the memory-ranking fit needs from src/: the ranking itself and the search's candidate parameters.
export { calibrate } from "../../src/core/calibration/calibration";
export { calibrationFor } from "../../src/core/scale/registry";
export { lookupCards } from "../../src/features/cards/store";
export { CARD_BONUS, MIN_CANDIDATE_WINDOW } from "../../src/features/memories/search";
export { RELEVANCE_WEIGHT, rankHybrid } from "../../src/core/ranking/hybrid";
export { slotsForQuestion } from "../../src/core/text/cards";
export { containsCjk } from "../../src/core/text/cjk";
export { expandQuery } from "../../src/core/text/expand";
export { underlyingQuestionType } from "../../src/core/text/question-type";
