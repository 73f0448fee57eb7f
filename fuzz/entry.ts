/** What scripts/fuzz.mjs loads (bundled by esbuild): the fuzzer and the table. */
export { fuzz } from "./run";
export { formatTable } from "./table";
