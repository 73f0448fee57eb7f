// The files of the /docs page (Swagger UI), copied from node_modules/swagger-ui-dist into the
// Worker's static-assets folder (dist/assets, git-ignored): served by the Worker itself, no CDN.
// Run by `npm start`, the test config, the bench/fuzz Worker and `npm run deploy`; idempotent.
import { copyFileSync, mkdirSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
export const ASSETS_DIR = join(root, "dist", "assets");
/** What /docs loads, under /reference/ (src/http/routes/reference.ts). */
const FILES = ["swagger-ui.css", "swagger-ui-bundle.js"];

export function copyReferenceAssets() {
  const source = dirname(createRequire(import.meta.url).resolve("swagger-ui-dist/package.json"));
  const target = join(ASSETS_DIR, "reference");
  mkdirSync(target, { recursive: true });
  for (const file of FILES) copyFileSync(join(source, file), join(target, file));
  return target;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) console.log(`reference assets in ${copyReferenceAssets()}`);
