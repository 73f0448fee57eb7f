// What the fusion fit needs from src/: the fusion itself and the search's candidate parameters.
export { calibrate } from "../../src/core/calibration/calibration";
export { calibrationFor } from "../../src/core/scale/registry";
export { FAQ_SEARCH } from "../../src/features/faqs/search-settings";
export { fuseScores } from "../../src/core/ranking/fusion";
export { containsCjk } from "../../src/core/text/cjk";
export { expandQuery } from "../../src/core/text/expand";
