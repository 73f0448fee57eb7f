// Compiles src/adapters/vectors/kernels.wat into the kernels.wasm committed beside it (`npm run build:wasm`).
// The binary is committed so the Worker, its tests and the benches load it without a build step;
// test/node/kernels.test.ts fails when it differs from what this compiles.
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import wabt from "wabt";

export const WAT = fileURLToPath(new URL("../src/adapters/vectors/kernels.wat", import.meta.url));
export const WASM = fileURLToPath(new URL("../src/adapters/vectors/kernels.wasm", import.meta.url));

/** The module's bytes as compiled from its text now. */
export async function compileKernels() {
  const module = (await wabt()).parseWat(WAT, readFileSync(WAT, "utf8"), { simd: true });
  try {
    module.validate();
    return Buffer.from(module.toBinary({}).buffer);
  } finally {
    module.destroy();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const bytes = await compileKernels();
  writeFileSync(WASM, bytes);
  console.log(`${WASM}: ${bytes.length} bytes`);
}
