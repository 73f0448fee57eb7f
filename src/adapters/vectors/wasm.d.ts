/** A `.wasm` import is a compiled module (wrangler's CompiledWasm rule; the Node bundlers do the same). */
declare module "*.wasm" {
  const module: WebAssembly.Module;
  export default module;
}
