// What the fusion fit needs from src/: the fusion itself and the search's candidate parameters.
export { calibrate } from "../../src/core/calibration/calibration";
export { calibrationFor } from "../../src/core/scale/registry";
export { ANSWER_COLUMN_WEIGHT, MIN_FAQ_WINDOW, QUESTION_COLUMN_WEIGHT, VECTOR_MIN_SIMILARITY } from "../../src/features/faqs/search";
export { fuseScores } from "../../src/core/ranking/fusion";
export { containsCjk } from "../../src/core/text/cjk";
export { expandQuery } from "../../src/core/text/expand";
