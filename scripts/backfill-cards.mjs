// `npm run cards:backfill -- [--url http://127.0.0.1:8787] [--key <admin key>] [--batch 200]`:
// extracts memory cards for a tenant's existing memories by paging through
// POST /v1/admin/cards/backfill (oldest first; safe to run again), with a progress line.
import { hc } from "hono/client";

const args = Object.fromEntries(
  process.argv
    .slice(2)
    .join(" ")
    .split(/\s*--/)
    .filter(Boolean)
    .map((pair) => pair.split(/\s+/)),
);
const url = args.url ?? process.env.RECALL_URL ?? "http://127.0.0.1:8787";
const key = args.key ?? process.env.RECALL_API_KEY ?? process.env.RECALL_DEV_API_KEY ?? "rk_dev_local_only_change_me";
const batchSize = Number(args.batch ?? 200);

/** The typed API client (src/client.ts); editors check these calls against the route types. @type {import("../src/client").RecallClient} */
const api = hc(url, { headers: { authorization: `Bearer ${key}` } });

let after = 0;
let processed = 0;
let cards = 0;
for (;;) {
  const response = await api.v1.admin.cards.backfill.$post({ json: { after, batchSize } });
  if (!response.ok) {
    console.error(`\nbackfill failed: ${response.status} ${await response.text()}`);
    process.exit(1);
  }
  const page = await response.json();
  processed += page.processed;
  cards += page.cardsCreated;
  process.stderr.write(`\r  memories read: ${processed}   cards created: ${cards}`);
  if (page.nextCursor === null) break;
  after = page.nextCursor;
}
process.stderr.write("\n");
console.log(`done: ${processed} memories read, ${cards} cards created`);
