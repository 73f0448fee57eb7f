// Builds labeled sentence pairs for `npm run calibrate` from the shared evaluation sets
// (../shared/data, see its README). Deterministic (fixed seed). The output is derived from
// third-party data, so it goes to a git-ignored folder (results/ by default), never the repo.
//
//   node scripts/build-calibration-pairs.mjs --data ../shared/data --out results/calibration/pairs.shared.jsonl
//
// English (stackfaq): each paraphrase query ↔ its FAQ question = paraphrase;
//                     the same query ↔ a random other FAQ question = unrelated.
// Chinese (lcqmc):    a query ↔ its paired sentence = paraphrase;
//                     the same query ↔ a random corpus sentence (not itself, not relevant) = unrelated.
// Neither set has a "related" label: related pairs come from calibration/pairs.handwritten.jsonl.
// Chinese pairs are for multilingual models only: an English-only model (use-lite-512) gives
// every Chinese sentence the same vector, and `npm run calibrate` skips them for it.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { rng } from "./calibration-fit.mjs";

const { values } = parseArgs({
  options: {
    data: { type: "string", default: "../shared/data" },
    out: { type: "string", default: "results/calibration/pairs.shared.jsonl" },
    seed: { type: "string", default: "20251019" },
    "zh-limit": { type: "string", default: "1000" },
  },
});

const readJsonl = (file) =>
  readFileSync(file, "utf8")
    .split("\n")
    .filter((line) => line.trim())
    .map((line) => JSON.parse(line));

const random = rng(Number(values.seed));
const pick = (items, avoid) => {
  for (;;) {
    const item = items[Math.floor(random() * items.length)];
    if (!avoid(item)) return item;
  }
};

const out = [];

{
  const dir = path.join(values.data, "stackfaq");
  const corpus = readJsonl(path.join(dir, "corpus.jsonl"));
  const byId = new Map(corpus.map((d) => [d.id, d]));
  for (const q of readJsonl(path.join(dir, "queries.jsonl"))) {
    const relevant = new Set(q.relevant);
    for (const id of q.relevant) {
      const doc = byId.get(id);
      if (doc) out.push({ a: q.text, b: doc.text, label: "paraphrase", lang: "en", source: `stackfaq:${q.id}` });
    }
    const other = pick(corpus, (d) => relevant.has(d.id));
    out.push({ a: q.text, b: other.text, label: "unrelated", lang: "en", source: `stackfaq:${q.id}` });
  }
}

{
  const dir = path.join(values.data, "lcqmc");
  const corpus = readJsonl(path.join(dir, "corpus.jsonl"));
  const byId = new Map(corpus.map((d) => [d.id, d]));
  const queries = readJsonl(path.join(dir, "queries.jsonl"));
  const limit = Math.min(Number(values["zh-limit"]), queries.length);
  // A deterministic sample of queries: shuffle indices with the seeded PRNG, keep the first `limit`.
  const order = queries.map((_, i) => i);
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [order[i], order[j]] = [order[j], order[i]];
  }
  for (const index of order.slice(0, limit).sort((x, y) => x - y)) {
    const q = queries[index];
    const relevant = new Set([q.id, ...q.relevant]);
    const doc = byId.get(q.relevant[0]);
    if (!doc) continue;
    out.push({ a: q.text, b: doc.text, label: "paraphrase", lang: "zh", source: `lcqmc:${q.id}` });
    const other = pick(corpus, (d) => relevant.has(d.id));
    out.push({ a: q.text, b: other.text, label: "unrelated", lang: "zh", source: `lcqmc:${q.id}` });
  }
}

mkdirSync(path.dirname(values.out), { recursive: true });
writeFileSync(values.out, out.map((p) => JSON.stringify(p)).join("\n") + "\n");
const count = (lang, label) => out.filter((p) => p.lang === lang && p.label === label).length;
console.log(
  `wrote ${out.length} pairs to ${values.out}: en ${count("en", "paraphrase")} paraphrase / ${count("en", "unrelated")} unrelated (stackfaq), ` +
    `zh ${count("zh", "paraphrase")} paraphrase / ${count("zh", "unrelated")} unrelated (lcqmc)`,
);
