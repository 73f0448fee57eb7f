// Node has no import of a `.wasm` file as a compiled module, which wrangler's CompiledWasm rule
// gives the Worker (src/adapters/vectors/scan-memory.ts). These plugins give Node's bundlers the same.
import { readFileSync } from "node:fs";

const source = (path) => `export default new WebAssembly.Module(Buffer.from("${readFileSync(path).toString("base64")}", "base64"));`;

/** For esbuild (bench/support/bundle.mjs). */
export const esbuildWasmModule = {
  name: "wasm-module",
  setup(build) {
    build.onLoad({ filter: /\.wasm$/ }, (args) => ({ contents: source(args.path), loader: "js" }));
  },
};

/** For Vite, and so Vitest's Node projects (vitest.config.ts). */
export const viteWasmModule = {
  name: "wasm-module",
  enforce: "pre",
  load(id) {
    return id.endsWith(".wasm") ? source(id) : null;
  },
};
