// What the vector-scan benchmark needs from src/: the in-memory snapshot and its scan parameters.
export { rescoreDepth, VectorSnapshot } from "../../src/vectors/snapshot";
