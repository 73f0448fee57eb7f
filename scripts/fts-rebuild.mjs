// `npm run fts:rebuild -- [--url http://127.0.0.1:8787] [--key <admin key>] [--batch 200]`:
// re-tokenizes a tenant's full-text rows (memories, FAQs, FAQ variants) with the current
// segmentation by paging through POST /v1/admin/fts/rebuild; safe to run again (unchanged rows
// are not written). Run once per tenant after a release that changes src/text/fts.ts.
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

for (const collection of ["memories", "faqs", "faq_variants"]) {
  let after = 0;
  let processed = 0;
  let rewritten = 0;
  for (;;) {
    const response = await fetch(`${url}/v1/admin/fts/rebuild`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify({ collection, after, batchSize }),
    });
    if (!response.ok) {
      console.error(`\nrebuild of ${collection} failed: ${response.status} ${await response.text()}`);
      process.exit(1);
    }
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
