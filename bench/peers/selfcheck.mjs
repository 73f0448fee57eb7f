// Self-check for the benchmark peers (not part of `npm test`: the test suite runs inside workerd,
// which cannot load PGlite). Run: node bench/peers/selfcheck.mjs — exits non-zero on a failure.
//
// 1. 20 tiny English FAQs with deterministic pseudo-random 8-d vectors, through every peer/mode:
//    an exact-title query ranks its doc first (lexical); a doc's own vector ranks it first
//    (vector); title of doc A + vector of doc B puts A and B in the top 2 (hybrid).
// 2. PGlite at 3,000 docs: the plans use the seed's GIN and the HNSW index, and vector mode still
//    finds a doc from its own vector.
import { rng } from "../../scripts/calibration-fit.mjs";
import { createMiniSearchPeer, tokenizeCjk } from "./minisearch.mjs";
import { createPgliteHybrid } from "./pglite-hybrid.mjs";

const DIMS = 8;
const TITLES = [
  "How do I reset my password",
  "Where can I download my invoice",
  "Can I change the shipping address after ordering",
  "What payment methods are accepted",
  "How long does delivery take to Canada",
  "Is there a student discount",
  "How to cancel a subscription renewal",
  "Why was my credit card declined",
  "Can I return opened headphones",
  "How do I enable two factor authentication",
  "Where is the warehouse located",
  "Do you offer gift wrapping",
  "How to export contacts as CSV",
  "What is the warranty period for laptops",
  "Can I merge two accounts",
  "How do I delete my profile permanently",
  "Are prices shown including VAT",
  "How to track a parcel with the courier",
  "Can I pay in monthly instalments",
  "Which browsers are supported by the dashboard",
];

function makeDocs(n, seed, titleOf) {
  const rand = rng(seed);
  return Array.from({ length: n }, (_, i) => ({
    id: `faq-${i}`,
    text: titleOf(i),
    answer: i % 3 === 0 ? undefined : `Answer number ${i}.`,
    vector: Float32Array.from({ length: DIMS }, () => rand() * 2 - 1),
  }));
}

let failures = 0;
let checks = 0;
function check(ok, what) {
  checks++;
  if (!ok) {
    failures++;
    console.log(`FAIL ${what}`);
  }
}
const ms = (t) => `${t.toFixed(1)} ms`;

async function timed(fn) {
  const t0 = performance.now();
  const value = await fn();
  return { value, ms: performance.now() - t0 };
}

// ---- 1. tiny set --------------------------------------------------------------------------------
const docs = makeDocs(TITLES.length, 42, (i) => TITLES[i]);
const n = docs.length;

const created = await timed(() => createPgliteHybrid({ dimensions: DIMS }));
const pg = created.value;
const pgLoad = await timed(() => pg.load(docs));
const mini = createMiniSearchPeer();
const miniLoad = await timed(() => mini.load(docs));
console.log(
  `${pg.name}: start ${ms(created.ms)}, load ${n} docs ${ms(pgLoad.ms)} (insert ${ms(pg.timings.insertMs)}, indexes ${ms(pg.timings.indexMs)})`,
);
console.log(`${mini.name}: load ${n} docs ${ms(miniLoad.ms)}`);

const times = { "pglite lexical": [], "pglite vector": [], "pglite hybrid": [], minisearch: [] };
for (let i = 0; i < n; i++) {
  const d = docs[i];
  const other = docs[(i + 7) % n];

  let r = await timed(() => pg.search({ text: d.text, mode: "lexical" }));
  times["pglite lexical"].push(r.ms);
  check(r.value[0]?.id === d.id, `pglite lexical: "${d.text}" → ${JSON.stringify(r.value.slice(0, 3))}`);
  check(
    r.value.every((x, j) => j === 0 || x.score <= r.value[j - 1].score),
    `pglite lexical: scores not descending for "${d.text}"`,
  );

  r = await timed(() => pg.search({ text: "", vector: d.vector, mode: "vector" }));
  times["pglite vector"].push(r.ms);
  check(r.value[0]?.id === d.id, `pglite vector: own vector of ${d.id} → ${JSON.stringify(r.value.slice(0, 3))}`);
  check(r.value.length === Math.min(10, n), `pglite vector: ${r.value.length} results, expected ${Math.min(10, n)}`);

  r = await timed(() => pg.search({ text: d.text, vector: other.vector, mode: "hybrid" }));
  times["pglite hybrid"].push(r.ms);
  const top2 = new Set(r.value.slice(0, 2).map((x) => x.id));
  check(top2.has(d.id) && top2.has(other.id), `pglite hybrid: title ${d.id} + vector ${other.id} → ${JSON.stringify(r.value.slice(0, 3))}`);

  r = await timed(() => mini.search({ text: d.text }));
  times.minisearch.push(r.ms);
  check(r.value[0]?.id === d.id, `minisearch: "${d.text}" → ${JSON.stringify(r.value.slice(0, 3))}`);
  check(r.value.length <= 10, "minisearch: limit 10");
}

// limit, and a query with no lexemes (stop words only): lexical finds nothing, hybrid = vector half
{
  const r3 = await pg.search({ text: docs[0].text, vector: docs[1].vector, limit: 3 });
  check(r3.length === 3, `pglite hybrid limit 3 → ${r3.length} rows`);
  const lex = await pg.search({ text: "how do I", mode: "lexical" });
  check(lex.length === 0, `pglite lexical on stop words → ${JSON.stringify(lex)}`);
  const hy = await pg.search({ text: "how do I", vector: docs[5].vector });
  check(hy[0]?.id === docs[5].id, `pglite hybrid on stop words + vector of faq-5 → ${JSON.stringify(hy.slice(0, 2))}`);
  const m3 = mini.search({ text: "password invoice warranty", limit: 3 });
  check(m3.length === 3 && new Set(m3.map((x) => x.id)).size === 3, `minisearch OR query, limit 3 → ${JSON.stringify(m3)}`);
}

// CJK tokenizer: unigrams + bigrams for CJK runs, default tokens otherwise
{
  const got = tokenizeCjk("如何修改密码？iPhone手机 reset");
  const want = ["如", "何", "修", "改", "密", "码", "如何", "何修", "修改", "改密", "密码", "iPhone", "手", "机", "手机", "reset"];
  check(JSON.stringify(got) === JSON.stringify(want), `tokenizeCjk → ${JSON.stringify(got)}`);
  const zh = createMiniSearchPeer();
  zh.load([
    { id: "a", text: "如何修改登录密码" },
    { id: "b", text: "快递多久能到" },
  ]);
  check(zh.search({ text: "密码怎么改" })[0]?.id === "a", "minisearch: Chinese query finds its doc");
}

await pg.close();

for (const [k, v] of Object.entries(times)) {
  const s = [...v].sort((a, b) => a - b);
  console.log(`search ${k.padEnd(15)} n=${s.length} median ${ms(s[Math.floor(s.length / 2)])}, max ${ms(s[s.length - 1])}`);
}

// ---- 2. PGlite at 3,000 docs: index use --------------------------------------------------------
{
  const N = 3000;
  const WORDS = ["order", "refund", "account", "login", "shipping", "invoice", "card", "plan", "device", "export", "team", "email"];
  const big = makeDocs(N, 7, (i) => `question ${i} about ${WORDS[i % WORDS.length]} and ${WORDS[(i * 7) % WORDS.length]} number${i}`);
  const peer = await createPgliteHybrid({ dimensions: DIMS });
  const load = await timed(() => peer.load(big));
  console.log(`${peer.name}: load ${N} docs ${ms(load.ms)} (insert ${ms(peer.timings.insertMs)}, indexes ${ms(peer.timings.indexMs)})`);
  const q = big[1234];
  const plan = await peer.explain({ text: "refund shipping", vector: q.vector, mode: "hybrid" });
  check(/idx_purchasing_faq_embedding/.test(plan), `hybrid plan at ${N} rows does not use the HNSW index:\n${plan}`);
  check(/idx_purchasing_faq_fts/.test(plan), `hybrid plan at ${N} rows does not use the GIN index:\n${plan}`);
  const hits = [];
  const t = [];
  for (let i = 0; i < 50; i++) {
    const d = big[(i * 61) % N];
    const r = await timed(() => peer.search({ text: "", vector: d.vector, mode: "vector" }));
    t.push(r.ms);
    hits.push(r.value.some((x) => x.id === d.id));
    const h = await timed(() => peer.search({ text: d.text, vector: d.vector }));
    t.push(h.ms);
    check(h.value[0]?.id === d.id, `hybrid at ${N}: ${d.id} by own title+vector → ${JSON.stringify(h.value.slice(0, 2))}`);
  }
  const found = hits.filter(Boolean).length;
  check(found >= 48, `vector mode at ${N} rows (HNSW): own doc in top 10 for ${found}/50`);
  t.sort((a, b) => a - b);
  console.log(
    `search at ${N} (vector + hybrid, n=${t.length}): median ${ms(t[t.length >> 1])}, max ${ms(t[t.length - 1])}; own doc in vector top 10: ${found}/50`,
  );
  await peer.close();
}

console.log(`${checks - failures} passed, ${failures} failed`);
process.exit(failures === 0 ? 0 : 1);
