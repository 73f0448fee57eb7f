/** What scripts/fuzz.mjs loads (bundled by esbuild): the fuzzer and the table. */
export { formatTable, fuzz } from "./run";
