// What `npm run fit:need` measures and fits: the information-need decision as shipped, its
// features, the logistic fitter, and the decision it replaces (bundled with esbuild).
export { informationNeed } from "../../src/core/text/need";
export { NEED_FEATURES, needFeatures } from "../../src/core/text/need-features";
export { needTerms } from "../../src/core/text/need-terms";
export { fitLogisticTerms, sigmoid, termsLogit } from "../../src/core/base/logistic-terms";
