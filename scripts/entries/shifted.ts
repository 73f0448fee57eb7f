// The shifted model of src/adapters/embeddings/shifted.ts for the local embedding server (scripts/local-embedder.mjs).
export { SHIFTED_SUFFIX, shiftVector } from "../../src/adapters/embeddings/shifted";
