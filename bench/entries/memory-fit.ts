// What the memory-ranking fit needs from src/: the ranking itself and the search's candidate parameters.
export { calibrate } from "../../src/calibration/calibration";
export { calibrationFor } from "../../src/calibration/registry";
export { lookupCards } from "../../src/cards/store";
export { CARD_BONUS, MIN_CANDIDATE_WINDOW } from "../../src/memories/search";
export { RELEVANCE_WEIGHT, rankHybrid } from "../../src/ranking/hybrid";
export { slotsForQuestion } from "../../src/text/cards";
export { containsCjk } from "../../src/text/cjk";
export { expandQuery } from "../../src/text/expand";
export { underlyingQuestionType } from "../../src/text/question-type";
