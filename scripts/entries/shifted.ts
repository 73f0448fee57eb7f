// The shifted model of src/embeddings/shifted.ts for the local embedding server (scripts/local-embedder.mjs).
export { SHIFTED_SUFFIX, shiftVector } from "../../src/embeddings/shifted";
