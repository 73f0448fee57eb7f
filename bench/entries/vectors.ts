// What the vector-scan benchmark needs from src/: the in-memory snapshot, its scan parameters,
// the stored page layout and the cache budget of one isolate.
export { rescoreDepth, VectorSnapshot } from "../../src/adapters/vectors/snapshot";
export { codeWords, packPage, PAGE_ROWS, unpackPage } from "../../src/adapters/vectors/packed";
export { vectorsWithin } from "../../src/adapters/vectors/exact-d1";
export { CACHE_BUDGET } from "../../src/platform/isolate/memory";
