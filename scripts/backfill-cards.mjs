// `npm run cards:backfill -- [--url http://127.0.0.1:8787] [--key <admin key>] [--batch 200]`:
// extracts memory cards for a tenant's existing memories by paging through
// POST /v1/admin/cards/backfill (oldest first; safe to run again), with a progress line.
import { adminCli, failWith } from "./support/admin-cli.mjs";

const { api, batchSize } = adminCli();

let after = 0;
let processed = 0;
let cards = 0;
for (;;) {
  const response = await api.v1.admin.cards.backfill.$post({ json: { after, batchSize } });
  if (!response.ok) await failWith("backfill", response);
  const page = await response.json();
  processed += page.processed;
  cards += page.cardsCreated;
  process.stderr.write(`\r  memories read: ${processed}   cards created: ${cards}`);
  if (page.nextCursor === null) break;
  after = page.nextCursor;
}
process.stderr.write("\n");
console.log(`done: ${processed} memories read, ${cards} cards created`);
