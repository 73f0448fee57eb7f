// Two builds of the Worker side by side on one machine: the same 1k-FAQ tenant in each, and the
// same new queries sent to both in alternation, so both see the same load. A change of a
// millisecond or two is lost in this machine's drift between separate bench runs; here it shows.
// Not a benchmark (`npm run bench` does not run it). The other build is a checkout beside this one:
//   git worktree add ../recall-b <commit> && ln -s "$PWD/node_modules" ../recall-b/node_modules
//   node bench/ab-faq-search.mjs ../recall-b        AB_FAQS=1000 AB_REQUESTS=300
import { basename, resolve } from "node:path";
import { generate, importChunk, queriesFor } from "./support/faq-data.mjs";
import { serverTiming } from "./support/profile.mjs";
import { percentiles } from "./support/stats.mjs";
import { cacheEmbeddings, createTenantKey, embedAll, expectOk, keepAliveFetch, startWorker } from "./support/worker.mjs";

const FAQS = Number(process.env.AB_FAQS ?? 1000);
const REQUESTS = Number(process.env.AB_REQUESTS ?? 300);
const other = process.argv[2];
if (!other) throw new Error("usage: node bench/ab-faq-search.mjs <other checkout>");

const faqs = generate(FAQS);
const texts = faqs.flatMap((f) => [f.question, ...f.variants]);
const builds = [
  { name: "this", worker: await startWorker({ helperEmbedder: false }) },
  { name: basename(resolve(other)), worker: await startWorker({ helperEmbedder: false, source: resolve(other) }) },
];
try {
  const vectors = await embedAll(builds[0].worker.embedderUrl, texts);
  for (const build of builds) {
    await cacheEmbeddings(build.worker.cache, "use-lite-512", texts, vectors);
    build.api = build.worker.client((await createTenantKey(build.worker.db, "a/b")).key);
    for (let i = 0; i < FAQS; i += 1000) await importChunk(build.api, faqs.slice(i, i + 1000));
    await expectOk(build.api.v1.faqs.search.$post({ json: { query: "warm up" } }));
    build.figures = { wall: [], embed: [], rest: [], app: [], search: [], harness: [], healthz: [] };
  }
  const queries = queriesFor(faqs, FAQS, REQUESTS);
  for (const [i, q] of queries.entries()) {
    // Alternate which build goes first, so neither always follows the other's after-response work.
    for (const build of i % 2 === 0 ? builds : [...builds].reverse()) {
      const f = build.figures;
      const start = performance.now();
      const { headers } = await expectOk(build.api.v1.faqs.search.$post({ json: { query: q.text, limit: 10 } }));
      const wall = performance.now() - start;
      const t = serverTiming(headers);
      f.wall.push(wall);
      f.embed.push(t.embed);
      f.rest.push(wall - t.embed);
      f.app.push(t.app - t.embed);
      f.search.push(t.search);
      f.harness.push(wall - t.app);
      const floor = performance.now();
      await (await keepAliveFetch(`${build.worker.url}/healthz`)).text();
      f.healthz.push(performance.now() - floor);
    }
  }
  const cell = (xs) => `${percentiles(xs).p50.toFixed(2)} / ${percentiles(xs).p95.toFixed(2)}`.padStart(15);
  console.log(`${REQUESTS} new queries each over ${FAQS} FAQs, builds alternated; ms p50 / p95`);
  console.log(
    `  ${"".padEnd(12)}${["wall", "embed", "wall − embed", "app − embed", "search", "harness", "healthz"].map((h) => h.padStart(15)).join("")}`,
  );
  for (const { name, figures: f } of builds)
    console.log(`  ${name.slice(0, 12).padEnd(12)}${[f.wall, f.embed, f.rest, f.app, f.search, f.harness, f.healthz].map(cell).join("")}`);
} finally {
  for (const { worker } of builds) await worker.close();
}
