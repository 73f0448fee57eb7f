// The ranking defaults `npm run eval` reports beside its figures (one set of defaults for every set).
import { FAQ_SEARCH } from "../../src/features/faqs/search-settings";
import { DEFAULT_VECTOR_SHARE } from "../../src/core/ranking/fusion";
import { DEFAULT_HYBRID_WEIGHTS } from "../../src/core/ranking/hybrid";

export const fusion = { vectorShare: DEFAULT_VECTOR_SHARE, window: FAQ_SEARCH.minWindow, floor: FAQ_SEARCH.vectorMinSimilarity };
export const memory = DEFAULT_HYBRID_WEIGHTS;
