// What the memory benchmark needs from src/: the isolate's budget and what a cached vector costs.
export { CACHE_BUDGET, CACHED_BYTES, ISOLATE_BYTES } from "../../src/platform/isolate/memory";
export { VECTOR_OVERHEAD_BYTES, vectorBytes } from "../../src/adapters/vectors/snapshot";
