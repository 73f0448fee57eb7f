// The ranking defaults `npm run eval` reports beside its figures (one set of defaults for every set).
import { MIN_FAQ_WINDOW, VECTOR_MIN_SIMILARITY } from "../../src/features/faqs/search";
import { DEFAULT_VECTOR_SHARE } from "../../src/core/ranking/fusion";
import { DEFAULT_HYBRID_WEIGHTS } from "../../src/core/ranking/hybrid";

export const fusion = { vectorShare: DEFAULT_VECTOR_SHARE, window: MIN_FAQ_WINDOW, floor: VECTOR_MIN_SIMILARITY };
export const memory = DEFAULT_HYBRID_WEIGHTS;
