// Applies the D1 migrations to every database the production Worker binds (wrangler.toml's top-level
// [[d1_databases]]: DB and any DB_1, DB_2, … tenants are placed in; docs/design/tenant-placement.md).
// `npm run deploy` runs it before deploying the code that needs them.
//   node scripts/d1-migrate.mjs
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { readProductionConfig } from "./support/cloudflare-setup.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const { d1 } = readProductionConfig(readFileSync(join(root, "wrangler.toml"), "utf8"));
for (const { binding } of d1) {
  console.log(`applying D1 migrations to ${binding}…`);
  const result = spawnSync("npx", ["wrangler", "d1", "migrations", "apply", binding, "--remote", "--env", ""], {
    cwd: root,
    stdio: "inherit",
  });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
