// `npm run fts:rebuild -- [--url http://127.0.0.1:8787] [--key <admin key>] [--batch 200]`:
// re-tokenizes a tenant's full-text rows (memories, FAQs, FAQ variants) with the current
// segmentation by paging through POST /v1/admin/fts/rebuild; safe to run again (unchanged rows
// are not written). Run once per tenant after a release that changes src/core/text/fts.ts.
import { adminCli, failWith } from "./support/admin-cli.mjs";

const { api, batchSize } = adminCli();

for (const collection of ["memories", "faqs", "faq_variants"]) {
  let after = 0;
  let processed = 0;
  let rewritten = 0;
  for (;;) {
    const response = await api.v1.admin.fts.rebuild.$post({ json: { collection, after, batchSize } });
    if (!response.ok) await failWith(`rebuild of ${collection}`, response);
    const page = await response.json();
    processed += page.processed;
    rewritten += page.rewritten;
    process.stderr.write(`\r  ${collection}: read ${processed}, rewritten ${rewritten}`);
    if (page.nextCursor === null) break;
    after = page.nextCursor;
  }
  process.stderr.write("\n");
  console.log(`${collection}: ${processed} rows read, ${rewritten} re-tokenized`);
}
