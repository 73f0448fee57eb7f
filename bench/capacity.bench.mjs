// `npm run bench -- capacity` (issue 48): what a memory, an FAQ with its variants, a resolved ticket
// and a show question cost in one D1 database, and how fast one database takes the write paths.
//
// Bytes: each kind is written through the real API into a fresh local D1 (Miniflare, the
// migrations applied), and the database's pages are counted before and after, in all and per table
// (bench/support/sqlite-pages.mjs): rows, indexes, the FTS5 indexes and the exact index's vectors.
// Locally the vectors are 512-d (the npm model); production's bge-m3 writes 1024-d, so the same
// image is measured again with every stored vector widened to 1024 floats. A show question lives in
// its show's Durable Object (SQLite of its own), counted apart, with the show's listing row in D1.
//
// Write rate: memories and single FAQs written by 8 callers at once for a fixed count, their
// embeddings already in the Worker's cache, so the figure is the Worker and D1, not the model.
//
// Figures: results/capacity.json; `npm run report` renders docs/reports/capacity.md from it.
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { signTicketBody } from "../scripts/demo-seed.mjs";
import { generate, importChunk } from "./support/faq-data.mjs";
import { memories } from "./support/data.mjs";
import { bytesByTable, sqliteImage } from "./support/sqlite-pages.mjs";
import { benchSize, progress, saveResults, SMOKE } from "./support/stats.mjs";
import { cacheEmbeddings, createTenantKey, embedAll, expectOk, startWorker, storeMemories } from "./support/worker.mjs";

const SIZES = {
  memory: benchSize("BENCH_CAPACITY_MEMORIES", 2000, 20),
  faq: benchSize("BENCH_CAPACITY_FAQS", 1000, 10),
  ticket: benchSize("BENCH_CAPACITY_TICKETS", 300, 5),
  show: benchSize("BENCH_CAPACITY_SHOW_QUESTIONS", 2000, 20),
};
const WRITES = benchSize("BENCH_CAPACITY_WRITES", 1000, 16);
const WRITERS = 8;
/** Production's embedding size (bge-m3), for the second measure of the same database. */
const PRODUCTION_DIMENSIONS = 1024;
const D1_LIMIT_BYTES = 10 * 1000 ** 3;

/** Waits until nothing writes to the database files (deferred work, the queue consumer) for a second. */
async function settled(dir) {
  let last = "";
  for (let quiet = 0; quiet < 4;) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    const now = sqliteFiles(dir)
      .flatMap((f) => [f, `${f}-wal`])
      .map((f) => statSafe(f))
      .join();
    quiet = now === last ? quiet + 1 : 0;
    last = now;
  }
}
const statSafe = (f) => {
  try {
    const s = statSync(f);
    return `${s.size}:${s.mtimeMs}`;
  } catch {
    return "-";
  }
};
/** The SQLite files of the run's state: D1's database (not Miniflare's metadata) and each Durable Object's. */
function sqliteFiles(dir, under = "") {
  return readdirSync(dir, { recursive: true })
    .filter((f) => f.endsWith(".sqlite") && !f.endsWith("metadata.sqlite") && f.includes(under))
    .map((f) => join(dir, f));
}

async function measure(dir, under, rewrite) {
  const totals = { total: 0, byTable: {} };
  for (const file of sqliteFiles(dir, under)) {
    const { total, byTable } = await bytesByTable(sqliteImage(file), rewrite);
    totals.total += total;
    for (const [t, b] of Object.entries(byTable)) totals.byTable[t] = (totals.byTable[t] ?? 0) + b;
  }
  return totals;
}

/** Every stored vector at production's width: D1's exact index, and a show's questions in its Durable Object. */
const WIDEN_D1 = `UPDATE vectors SET vector = zeroblob(${PRODUCTION_DIMENSIONS * 4}), dimensions = ${PRODUCTION_DIMENSIONS}`;
const WIDEN_SHOW = `UPDATE show_questions SET embedding = zeroblob(${PRODUCTION_DIMENSIONS * 4}) WHERE embedding IS NOT NULL`;

/** Per item: bytes in D1 (at 512-d and 1024-d), per table, and in Durable Objects. */
function perItem(before, after, n) {
  const tables = Object.keys(after.d1.byTable)
    .map((t) => ({ table: t, bytes: ((after.d1.byTable[t] ?? 0) - (before.d1.byTable[t] ?? 0)) / n }))
    .filter((t) => t.bytes !== 0)
    .sort((a, b) => b.bytes - a.bytes);
  return {
    d1Bytes: (after.d1.total - before.d1.total) / n,
    d1Bytes1024: (after.d1Wide.total - before.d1Wide.total) / n,
    durableObjectBytes: (after.objects.total - before.objects.total) / n,
    durableObjectBytes1024: (after.objectsWide.total - before.objectsWide.total) / n,
    tables,
  };
}

async function snapshot(dir) {
  await settled(dir);
  return {
    d1: await measure(dir, "D1DatabaseObject"),
    d1Wide: await measure(dir, "D1DatabaseObject", WIDEN_D1),
    objects: await measure(dir, "ShowMemory"),
    objectsWide: await measure(dir, "ShowMemory", WIDEN_SHOW),
  };
}

/** Each kind: what is written first (not counted), then the n items that are. */
const KINDS = {
  memory: {
    unit: "memory (with its cards)",
    async write(api, n) {
      const bodies = memories(n).map((m) => ({ ...m, scope: "user:capacity" }));
      await storeMemories(api, bodies, progress("memories", n));
      return { meanTextChars: mean(bodies.map((b) => b.content.length)) };
    },
  },
  faq: {
    unit: "FAQ with 3 variants",
    async write(api, n) {
      const faqs = generate(n);
      const tick = progress("FAQs", n);
      for (let i = 0; i < n; i += 250) {
        await importChunk(api, faqs.slice(i, i + 250));
        tick(Math.min(n, i + 250));
      }
      return { meanTextChars: mean(faqs.map((f) => [f.question, f.answer, ...f.variants].join("").length)) };
    },
  },
  ticket: {
    unit: "resolved ticket (decided by the pipeline)",
    async prepare(api) {
      await importChunk(api, generate(200));
    },
    async write(api, n, tenant, worker) {
      const { secret } = (await expectOk(api.v1.admin["webhook-secrets"].$post({ json: {} }))).json;
      // Half ask what a stored FAQ asks in other words, half are new questions.
      const known = generate(200);
      const fresh = generate(200 + n).slice(200);
      const tickets = Array.from({ length: n }, (_, i) => {
        const faq = i % 2 === 0 ? known[i % known.length] : fresh[i];
        return {
          ticketId: `CAP-${i}`,
          subject: "",
          question: i % 2 === 0 ? faq.variants[(i >> 1) % faq.variants.length] : faq.question,
          answer: `${faq.answer} Let us know if anything else comes up.`,
          resolvedAt: new Date().toISOString(),
        };
      });
      for (let i = 0; i < n; i += 25) {
        const body = JSON.stringify({ tickets: tickets.slice(i, i + 25) });
        const headers = { "content-type": "application/json", "x-recall-tenant": tenant, ...signTicketBody(secret, body) };
        await expectOk(api.v1.webhooks.tickets.$post({}, { headers, init: { body } }));
      }
      const tick = progress("tickets decided", n);
      for (let decided = 0; decided < n;) {
        await new Promise((resolve) => setTimeout(resolve, 500));
        decided = Number((await worker.db.prepare("SELECT count(*) AS n FROM tickets WHERE status <> 'received'").first()).n);
        tick(Math.min(decided, n));
      }
      return { meanTextChars: mean(tickets.map((t) => t.question.length + t.answer.length)) };
    },
  },
  show: {
    unit: "show question",
    async write(api, n) {
      const texts = memories(n, 9).map((m) => m.content);
      const tick = progress("show questions", n);
      for (let i = 0; i < n; i += 50) {
        const questions = texts.slice(i, i + 50).map((text) => ({ text }));
        await expectOk(api.v1.shows[":showId"].questions.$post({ param: { showId: `show-${(i / 50) % 4}` }, json: { questions } }));
        tick(Math.min(n, i + 50));
      }
      return { meanTextChars: mean(texts.map((t) => t.length)) };
    },
  },
};

const mean = (xs) => Math.round(xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length));

async function measureKind(name) {
  const kind = KINDS[name];
  const n = SIZES[name];
  const worker = await startWorker({ helperEmbedder: false, ticketConsumer: name === "ticket" });
  try {
    const { tenantId, key } = await createTenantKey(worker.db, `capacity ${name}`);
    const api = worker.client(key);
    await kind.prepare?.(api);
    const before = await snapshot(worker.stateDir);
    const texts = await kind.write(api, n, tenantId, worker);
    const after = await snapshot(worker.stateDir);
    const item = perItem(before, after, n);
    console.log(
      `${kind.unit}: ${fmt(item.d1Bytes)} B in D1 at 512-d, ${fmt(item.d1Bytes1024)} B at 1024-d${item.durableObjectBytes ? `, ${fmt(item.durableObjectBytes)} B in its Durable Object (${fmt(item.durableObjectBytes1024)} B at 1024-d)` : ""} (n = ${n}, ${texts.meanTextChars} characters of text)`,
    );
    for (const t of item.tables.slice(0, 6)) console.log(`  ${t.table.padEnd(28)} ${fmt(t.bytes).padStart(8)} B`);
    return { kind: name, unit: kind.unit, n, ...texts, ...item };
  } finally {
    await worker.close();
  }
}

const fmt = (x) => Math.round(x).toLocaleString("en-US");

/** `count` writes, WRITERS at a time; returns writes per second and the D1 round trips of each (Server-Timing io). */
async function writeRate(label, count, send) {
  const d1Calls = [];
  let next = 0;
  const started = performance.now();
  const tick = progress(label, count);
  await Promise.all(
    Array.from({ length: WRITERS }, async () => {
      for (let i = next++; i < count; i = next++) {
        const { headers } = await send(i);
        const io = /io;desc="([^"]*)"/.exec(headers.get("server-timing") ?? "")?.[1] ?? "";
        d1Calls.push(Number(/d1=(\d+)/.exec(io)?.[1] ?? Number.NaN));
        tick(d1Calls.length);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const perSecond = count / seconds;
  const meanD1 = mean(d1Calls.filter(Number.isFinite));
  console.log(
    `${label}: ${perSecond.toFixed(0)} writes/s with ${WRITERS} writers (${count} in ${seconds.toFixed(1)} s), ${meanD1} D1 round trips each`,
  );
  return { path: label, writes: count, writers: WRITERS, seconds, perSecond, d1CallsPerWrite: meanD1 };
}

async function measureWriteRates() {
  const worker = await startWorker({ helperEmbedder: false });
  try {
    const { key } = await createTenantKey(worker.db, "capacity writes");
    const api = worker.client(key);
    const bodies = memories(WRITES, 11).map((m) => ({ ...m, scope: "user:capacity" }));
    const faqs = generate(WRITES + 5000).slice(5000);
    const texts = [...bodies.map((b) => b.content), ...faqs.map((f) => f.question)];
    const vectors = await embedAll([worker.embedderUrl], texts, progress("embeddings, cached ahead", texts.length));
    await cacheEmbeddings(worker.cache, "use-lite-512", texts, vectors);
    return [
      await writeRate("POST /v1/memories", WRITES, (i) => expectOk(api.v1.memories.$post({ json: bodies[i] }))),
      await writeRate("POST /v1/faqs", WRITES, (i) =>
        expectOk(api.v1.faqs.$post({ json: { question: faqs[i].question, answer: faqs[i].answer, tags: faqs[i].tags } })),
      ),
    ];
  } finally {
    await worker.close();
  }
}

const kinds = [];
for (const name of Object.keys(KINDS)) kinds.push(await measureKind(name));
const writes = await measureWriteRates();
const file = saveResults("capacity", {
  smoke: SMOKE,
  limitBytes: D1_LIMIT_BYTES,
  localDimensions: 512,
  productionDimensions: PRODUCTION_DIMENSIONS,
  kinds,
  writes,
});
console.log(`figures: ${file}`);
