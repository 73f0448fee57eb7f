// The ranking defaults `npm run eval` reports beside its figures (one set of defaults for every set).
import { MIN_FAQ_WINDOW, VECTOR_MIN_SIMILARITY } from "../../src/faqs/search";
import { DEFAULT_VECTOR_SHARE } from "../../src/ranking/fusion";
import { DEFAULT_HYBRID_WEIGHTS } from "../../src/ranking/hybrid";

export const fusion = { vectorShare: DEFAULT_VECTOR_SHARE, window: MIN_FAQ_WINDOW, floor: VECTOR_MIN_SIMILARITY };
export const memory = DEFAULT_HYBRID_WEIGHTS;
