/** The committed kernels.wasm is what its text compiles to (`npm run build:wasm` rebuilds it). */
import { readFileSync } from "node:fs";
import { expect, it } from "vitest";
// @ts-expect-error: plain ESM script, no type declarations
import { compileKernels, WASM } from "../../scripts/build-wasm.mjs";

it("src/adapters/vectors/kernels.wasm matches src/adapters/vectors/kernels.wat", async () => {
  const compiled: Buffer = await compileKernels();
  expect(compiled.equals(readFileSync(WASM)), "kernels.wasm is stale: run `npm run build:wasm`").toBe(true);
});
