// `npm run calibrate -- --pairs FILE [--pairs FILE …] --model ID [--out DIR] [--dry-run]`
// `npm run calibrate -- --repeat …`: see scripts/calibrate-repeat.mjs
//
// Embeds labeled sentence pairs (JSONL: { a, b, label: paraphrase|related|unrelated, lang? })
// with one embedding model, fits a monotone map from its raw cosine to the seeds' similarity scale
// (method in scripts/calibration-fit.mjs), prints band agreement before (raw cosine) and after
// (calibrated: in-sample, and 2-fold out-of-sample), and writes src/core/scale/tables/<model>.json.
// A new table must then be imported in src/core/scale/registry.ts (Workers read no files at run time).
//
// Models:
// - `use-lite-512`, the local default (from npm, offline).
// - A Workers AI model (`@cf/baai/bge-m3`, `@cf/baai/bge-{small,base,large}-en-v1.5`), embedded from
//   a laptop through the Workers AI REST API with CLOUDFLARE_ACCOUNT_ID and CLOUDFLARE_API_TOKEN
//   from the environment, by the production adapter (src/adapters/embeddings/workers-ai.ts over
//   workers-ai-rest.ts, bundled from scripts/entries/workers-ai-rest.ts). Its embeddings are cached
//   in results/embeddings/, so a re-run embeds only new texts.
// - An ONNX model directory (`onnx:/path`) needs @huggingface/transformers, which this repo does
//   not install: add a loader in loadModel() below to support it.
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { importTs } from "../bench/support/bundle.mjs";
import { progress } from "../bench/support/stats.mjs";
import { LABELS, agreement, applyKnots, bandOf, cosine, fitKnots, hasCjk, hash32 } from "./calibration-fit.mjs";
import { cachedEmbeddings } from "./embedding-cache.mjs";

// `--repeat`: the show's repeat decision, measured and fitted on labelled pairs (scripts/calibrate-repeat.mjs).
if (process.argv.includes("--repeat")) {
  await import("./calibrate-repeat.mjs");
  process.exit(0);
}

const { values } = parseArgs({
  options: {
    pairs: { type: "string", multiple: true },
    model: { type: "string", default: "use-lite-512" },
    out: { type: "string", default: "src/core/scale/tables" },
    "dry-run": { type: "boolean", default: false },
  },
});
if (!values.pairs?.length) fail("usage: npm run calibrate -- --pairs FILE [--pairs FILE …] --model ID [--dry-run]");

console.log(`loading ${values.model}…`);
const loadStart = Date.now();
const model = await loadModel(values.model);
console.log(`loaded ${model.id} in ${((Date.now() - loadStart) / 1000).toFixed(1)} s`);

/** @type {{a: string, b: string, label: string, lang?: string, file: string}[]} */
let pairs = [];
for (const file of values.pairs) {
  const lines = readFileSync(file, "utf8")
    .split("\n")
    .filter((l) => l.trim());
  for (const [i, line] of lines.entries()) {
    const p = JSON.parse(line);
    if (typeof p.a !== "string" || typeof p.b !== "string" || !LABELS.includes(p.label)) {
      fail(`${file}:${i + 1}: expected { a, b, label: ${LABELS.join("|")} }`);
    }
    if (p.reference !== undefined && !(typeof p.reference === "number" && p.reference >= 0 && p.reference <= 1)) {
      fail(`${file}:${i + 1}: reference must be a similarity in [0, 1]`);
    }
    pairs.push({ a: p.a, b: p.b, label: p.label, lang: p.lang, reference: p.reference, file });
  }
}

if (!model.languages.includes("*")) {
  const before = pairs.length;
  pairs = pairs.filter((p) => (p.lang ?? "en") === "en" && !hasCjk(p.a) && !hasCjk(p.b));
  if (pairs.length < before) {
    console.log(
      `skipped ${before - pairs.length} non-English pairs: ${model.id} is English-only (every Chinese sentence embeds to the same vector)`,
    );
  }
}

const texts = [...new Set(pairs.flatMap((p) => [p.a, p.b]))];
console.log(`${pairs.length} pairs, ${texts.length} distinct texts to embed`);
/** @type {Map<string, ArrayLike<number>>} */
let vectors = new Map();
try {
  if (model.remote) {
    // Remote embeddings cost requests and money: through the disk cache (results/embeddings/), so
    // a second run (a --dry-run first, another mix of --pairs) embeds only texts it has not seen.
    vectors = await cachedEmbeddings(model, texts);
  } else {
    const embedded = progress(`embedding with ${model.id}`, texts.length);
    for (let i = 0; i < texts.length; i += 64) {
      const batch = texts.slice(i, i + 64);
      const out = await model.embed(batch);
      batch.forEach((t, j) => vectors.set(t, out[j]));
      embedded(vectors.size);
    }
  }
} catch (error) {
  // One line: the adapter's error and its cause ("Workers AI REST … answered 401: Authentication error").
  fail(`embedding with ${model.id} failed: ${[error?.message, error?.cause?.message].filter(Boolean).join(": ")}`);
}
const scored = pairs.map((p) => ({ ...p, raw: cosine(vectors.get(p.a), vectors.get(p.b)) }));

const { knots, boundaries, dropped } = fitKnots(scored);
const labelsOnly = fitKnots(scored, { references: false }).knots;
const before = agreement(scored, (p) => p.raw);
const after = agreement(scored, (p) => applyKnots(p.raw, knots));
const afterLabelsOnly = agreement(scored, (p) => applyKnots(p.raw, labelsOnly));
// Out-of-sample: fit on one half (by a stable hash of the pair), score the other, both ways.
const fold = (p) => hash32(`${p.a}\u0000${p.b}`) % 2;
const crossScores = new Map();
for (const k of [0, 1]) {
  const fitted = fitKnots(scored.filter((p) => fold(p) !== k)).knots;
  for (const p of scored.filter((q) => fold(q) === k)) crossScores.set(p, applyKnots(p.raw, fitted));
}
const crossValidated = agreement(scored, (p) => crossScores.get(p));

const files = [...new Set(scored.map((p) => p.file))];
const counts = LABELS.map((l) => `${scored.filter((p) => p.label === l).length} ${l}`).join(", ");
const fittedOn = `${files.join(" + ")} (${counts})`;
console.log(`model ${model.id}: ${scored.length} pairs from ${fittedOn}`);
console.log(`raw boundaries: related ≥ ${boundaries.related}, paraphrase ≥ ${boundaries.paraphrase}`);
console.log(`knots: ${JSON.stringify(knots)}`);
if (dropped.length) console.log(`anchors dropped (would break monotonicity): ${JSON.stringify(dropped)}`);
for (const p of scored.filter((q) => typeof q.reference === "number")) {
  console.log(
    `reference: raw ${p.raw.toFixed(4)} → ${applyKnots(p.raw, knots).toFixed(4)} (seed says ${p.reference}): "${p.a}" / "${p.b}"`,
  );
}
printAgreement("before (raw cosine)", before);
printAgreement("after (labels only, no reference anchors, in-sample)", afterLabelsOnly);
printAgreement("after (calibrated, in-sample)", after);
printAgreement("after (calibrated, 2-fold out-of-sample)", crossValidated);
for (const file of files) {
  const of = scored.filter((p) => p.file === file);
  printAgreement(
    `  ${file}: before`,
    agreement(of, (p) => p.raw),
  );
  printAgreement(
    `  ${file}: after `,
    agreement(of, (p) => applyKnots(p.raw, knots)),
  );
}
const byFile = Object.fromEntries(
  files.map((file) => {
    const of = scored.filter((p) => p.file === file);
    return [file, { before: agreement(of, (p) => p.raw), after: agreement(of, (p) => applyKnots(p.raw, knots)) }];
  }),
);

const table = {
  model: model.id,
  method: "isotonic-anchors",
  fittedOn,
  boundaries,
  dropped,
  agreement: { before, after, crossValidated, afterLabelsOnly, byFile },
  knots,
};
if (values["dry-run"]) {
  console.log("dry run: no table written");
} else {
  const file = path.join(values.out, `${model.id.replace(/[^A-Za-z0-9._-]/g, "_")}.json`);
  writeFileSync(file, JSON.stringify(table, null, 2) + "\n");
  console.log(`wrote ${file} (import it in src/core/scale/registry.ts if it is a new model)`);
  // The regression record: every pair from a file kept in the repo (calibration/…) with the band
  // it lands in now; test/integration/calibration.test.ts fails when a pair leaves its band.
  const kept = scored.filter((p) => p.file.split(path.sep)[0] === "calibration");
  if (kept.length) {
    const bandsFile = path.join("calibration", `bands.${model.id.replace(/[^A-Za-z0-9._-]/g, "_")}.json`);
    const rows = kept.map((p) => {
      const similarity = applyKnots(p.raw, knots);
      return { a: p.a, b: p.b, label: p.label, raw: round4(p.raw), similarity: round4(similarity), band: bandOf(similarity) };
    });
    writeFileSync(bandsFile, JSON.stringify({ model: model.id, pairs: rows }, null, 1) + "\n");
    console.log(`wrote ${bandsFile} (${rows.length} pairs)`);
  }
}

function printAgreement(title, a) {
  const per = Object.entries(a.perLabel)
    .map(([label, v]) => `${label} ${pct(v.agree)} of ${v.n}`)
    .join(", ");
  console.log(`${title}: overall ${pct(a.overall)}, macro ${pct(a.macro)} (${per})`);
}

function round4(x) {
  return Math.round(x * 1e4) / 1e4;
}

function pct(x) {
  return `${(x * 100).toFixed(1)}%`;
}

async function loadModel(id) {
  if (id === "use-lite-512") {
    const { loadLocalModel } = await import("./local-embedder.mjs");
    const local = await loadLocalModel();
    return { ...local, languages: ["en"] };
  }
  if (id.startsWith("onnx:")) {
    fail(
      `ONNX model directories are an extension point, not implemented: loading ${id.slice(5)} needs ` +
        "@huggingface/transformers (not installed). Add a loader in loadModel() in scripts/calibrate.mjs.",
    );
  }
  if (id.startsWith("@cf/")) return loadWorkersAiModel(id);
  fail(`unknown model ${id}: supported here are use-lite-512 and the Workers AI models (@cf/…)`);
}

/**
 * A Workers AI model through the REST API: the production adapter (workersAiEmbedder, with the
 * model's languages from src/adapters/embeddings/workers-ai.ts) over HTTP instead of the AI binding.
 */
async function loadWorkersAiModel(id) {
  const { WORKERS_AI_DIMENSIONS, workersAiRestEmbedder } = await importTs(new URL("./entries/workers-ai-rest.ts", import.meta.url));
  if (!(id in WORKERS_AI_DIMENSIONS)) {
    fail(
      `unknown Workers AI model ${id}: known are ${Object.keys(WORKERS_AI_DIMENSIONS).join(", ")} ` +
        "(add its dimensions to scripts/entries/workers-ai-rest.ts)",
    );
  }
  const missing = ["CLOUDFLARE_ACCOUNT_ID", "CLOUDFLARE_API_TOKEN"].filter((name) => !process.env[name]?.trim());
  if (missing.length) {
    fail(
      `${missing.join(" and ")} ${missing.length > 1 ? "are" : "is"} not set: ${id} is embedded through the Workers AI REST API ` +
        'with your account id and an API token (docs/guides/calibration.md, "Calibrating a production model")',
    );
  }
  const embedder = workersAiRestEmbedder(id, {
    accountId: process.env.CLOUDFLARE_ACCOUNT_ID.trim(),
    apiToken: process.env.CLOUDFLARE_API_TOKEN.trim(),
  });
  return {
    id,
    dimensions: embedder.dimensions,
    languages: embedder.languages,
    remote: true,
    embed: (texts) => embedder.embed(texts),
  };
}

function fail(message) {
  console.error(message);
  process.exit(1);
}
