// `npm run setup:cloudflare`: finds or creates everything the production Worker binds (D1
// database, KV namespace, Vectorize index and its metadata indexes, queues) and the Worker
// secrets it needs, and writes the ids into wrangler.toml's top level. Safe to run again: a second
// run finds everything and changes nothing. Then `npm run deploy`. docs/guides/deploy.md explains it.
//   --dry-run        only looks: prints what it would create, creates and writes nothing
//   --databases N    N D1 databases in all: DB and DB_1 … DB_{N-1} for tenant placement
//                    (docs/design/tenant-placement.md); the missing ones are added to wrangler.toml and created
// Needs a Cloudflare login (`npx wrangler login`, or CLOUDFLARE_API_TOKEN and CLOUDFLARE_ACCOUNT_ID).
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { SetupError, setupCloudflare, withDatabases, wranglerCli } from "./support/cloudflare-setup.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const configPath = join(root, "wrangler.toml");
const { values } = parseArgs({ options: { "dry-run": { type: "boolean" }, databases: { type: "string" } } });
const dryRun = values["dry-run"] ?? false;

try {
  await setupCloudflare({
    wrangler: wranglerCli({ cwd: root }),
    config: {
      // With --databases, the blocks to add are part of what the setup reads; they reach the file with the ids it finds.
      read: () => {
        const text = readFileSync(configPath, "utf8");
        return values.databases === undefined ? text : withDatabases(text, Number(values.databases));
      },
      write: (text) => writeFileSync(configPath, text),
    },
    dryRun,
    log: (line) => console.log(line),
  });
  if (!dryRun) console.log("Next: npm run deploy");
} catch (error) {
  if (!(error instanceof SetupError)) throw error;
  console.error(`\n✘ ${error.message}`);
  process.exitCode = 1;
}
