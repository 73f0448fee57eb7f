// Bundles a TypeScript entry with esbuild and imports it in Node: the benchmarks measure the
// product's own code, not a copy.
import { build } from "esbuild";
import { esbuildWasmModule } from "../../scripts/wasm-module.mjs";

export async function importTs(entryUrl) {
  const result = await build({
    entryPoints: [new URL(entryUrl).pathname],
    bundle: true,
    format: "esm",
    platform: "node",
    write: false,
    logLevel: "error",
    plugins: [esbuildWasmModule],
  });
  return import(`data:text/javascript;base64,${Buffer.from(result.outputFiles[0].text).toString("base64")}`);
}
