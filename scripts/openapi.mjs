// `npm run openapi`: writes the OpenAPI document (the same one GET /openapi.json serves) to a file
// or stdout, generated from the app's routes in Node: for linting (`.ci/run`) and client generators.
//   node scripts/openapi.mjs [--out results/openapi.json]
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { importTs } from "../bench/support/bundle.mjs";

const outIndex = process.argv.indexOf("--out");
const out = outIndex > 0 ? process.argv[outIndex + 1] : undefined;
const { openApiDocument } = await importTs(new URL("./entries/openapi.ts", import.meta.url));
const json = `${JSON.stringify(await openApiDocument(), null, 2)}\n`;
if (out) {
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, json);
  console.error(`wrote ${out}`);
} else process.stdout.write(json);
