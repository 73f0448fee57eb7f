// What the fusion fit needs from src/: the fusion itself and the search's candidate parameters.
export { calibrate } from "../../src/calibration/calibration";
export { calibrationFor } from "../../src/calibration/registry";
export { ANSWER_COLUMN_WEIGHT, MIN_FAQ_WINDOW, QUESTION_COLUMN_WEIGHT, VECTOR_MIN_SIMILARITY } from "../../src/faqs/search";
export { fuseScores } from "../../src/ranking/fusion";
export { containsCjk } from "../../src/text/cjk";
export { expandQuery } from "../../src/text/expand";
