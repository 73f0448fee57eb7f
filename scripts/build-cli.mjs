// Builds the `recall` command (package.json `bin`): src/cli/recall.ts and the project code it uses
// (the prompt classifier, the hook helpers) bundled into one plain-Node ESM file. Run by `prepare`
// (npm ci / npm install in a clone, and before packing) and by the e2e test setup; the output in
// dist/ is never committed.
import { chmodSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
export const CLI_PATH = join(root, "dist", "cli", "recall.mjs");

export async function buildCli() {
  await build({
    entryPoints: [join(root, "src", "cli", "recall.ts")],
    outfile: CLI_PATH,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    banner: { js: "#!/usr/bin/env node" },
    logLevel: "warning",
  });
  chmodSync(CLI_PATH, 0o755);
  return CLI_PATH;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await buildCli();
