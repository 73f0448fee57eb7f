// `npm run calibrate:self -- [--data ../shared/data] [--samples 500] [--render-only]`
//
// Proves the in-Worker self-fit (POST /v1/admin/calibration/fit, src/features/self-fit/) on
// labels, through the API of a local Worker (Miniflare, the real local embedder):
//   1. import the stackfaq dev set into a new tenant: each FAQ with its dev paraphrases as
//      variants, nothing else labelled;
//   2. fit the tenant's scale from its FAQs alone;
//   3. decide every pair of ../shared/data/pairs/ (product, mqp, lcqmc-test) with
//      POST /v1/similarity/explain, on the self-fitted tenant and on a tenant without a fit
//      (the scale it would have otherwise), and compare, with 95 % bootstrap intervals over
//      question groups.
// Twice: on the local model (against the offline table shipped for it) and on the same model with
// every cosine raised the way BGE's sit high (src/adapters/embeddings/shifted.ts), where the tenant without
// a fit compares raw cosine. Writes results/calibration/self-fit.json and docs/reports/calibration-self-fit.md
// (figures only: no text of ../shared/data is copied).
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { machineLine, when } from "../bench/support/report.mjs";
import { commit, machine, progress } from "../bench/support/stats.mjs";
import { createTenantKey, expectOk, importFaqs, startWorker } from "../bench/support/worker.mjs";
import { actionMetrics } from "./decisions-fit.mjs";
import { bootstrap } from "./calibration-fit.mjs";
import { startLocalEmbedder } from "./local-embedder.mjs";
import { readJsonl } from "./pair-sets.mjs";

const { values } = parseArgs({
  options: {
    data: { type: "string", default: "../shared/data" },
    samples: { type: "string", default: "500" },
    "render-only": { type: "boolean", default: false },
  },
});
const samples = Number(values.samples);
const data = (file) => readJsonl(values.data, file);

const corpus = data("stackfaq/corpus.jsonl");
const queries = data("stackfaq/queries.jsonl");
const sets = {
  product: data("pairs/product/pairs.jsonl").map((p) => ({
    a: p.a,
    b: p.b,
    y: p.label === "duplicate" ? 1 : 0,
    unrelated: p.relation === "unrelated",
    group: `product:${p.a}`,
  })),
  mqp: data("pairs/mqp/pairs.jsonl").map((p) => ({
    a: p.a,
    b: p.b,
    y: p.label === "duplicate" ? 1 : 0,
    unrelated: false,
    group: `mqp:${p.a}`,
  })),
  "lcqmc-test": data("pairs/lcqmc-test/pairs.jsonl").map((p) => ({
    a: p.a,
    b: p.b,
    y: p.label === "duplicate" ? 1 : 0,
    unrelated: false,
    group: `lcqmc:${p.a}`,
  })),
};

/** The knowledge base a deployment would hold: every stackfaq FAQ, its dev paraphrases as variants. */
function stackfaqNdjson() {
  const variants = new Map(corpus.map((d) => [d.id, []]));
  for (const q of queries) variants.get(q.relevant[0])?.push(q.text);
  return corpus
    .map((d) =>
      JSON.stringify({
        question: d.text,
        answer: d.answer || "(see the thread)",
        variants: [...new Set(variants.get(d.id))].slice(0, 200),
      }),
    )
    .join("\n");
}

async function fitToEnd(api) {
  for (let call = 0; call < 500; call++) {
    const { json } = await expectOk(api.v1.admin.calibration.fit.$post({ json: { sources: ["faqs"] } }));
    process.stderr.write(`\r  fit: ${json.phase} ${json.progress.measured}/${json.progress.pairs} pairs measured   `);
    if (json.status !== "running") {
      process.stderr.write("\n");
      return json;
    }
  }
  throw new Error("the fit did not finish in 500 calls");
}

/** Every pair decided by one tenant's scale, four requests in flight. */
async function decide(api, pairs, label) {
  const out = new Array(pairs.length);
  let next = 0;
  let done = 0;
  const bar = progress(label, pairs.length);
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      for (let i = next++; i < pairs.length; i = next++) {
        const { json } = await expectOk(api.v1.similarity.explain.$post({ json: { a: pairs[i].a, b: pairs[i].b } }));
        out[i] = { ...pairs[i], similarity: json.similarity ?? json.evidence.sharedWords, decision: json.decision };
        bar(++done);
      }
    }),
  );
  return out;
}

const round = (x) => Math.round(x * 1e4) / 1e4;
const STATISTICS = {
  /** Automatic "same question": how often right, and how many of the same questions it catches. */
  samePrecision: (rows) => actionMetrics(rows, (r) => r.decision === "same").precision,
  sameRecall: (rows) => actionMetrics(rows, (r) => r.decision === "same").recall,
  /** Calibrated similarity above the show's block line (0.80): the same questions above it, and how many above it are. */
  blockRecall: (rows) => actionMetrics(rows, (r) => r.similarity > 0.8).recall,
  blockPrecision: (rows) => actionMetrics(rows, (r) => r.similarity > 0.8).precision,
  /** Different questions (not the same) above the block line: what the show would block without a contrast. */
  differentBlocked: (rows) =>
    share(
      rows.filter((r) => !r.y),
      (r) => r.similarity > 0.8,
    ),
  /** Unrelated questions (product's labels) shown as "asked before": not `different`. */
  unrelatedShown: (rows) =>
    share(
      rows.filter((r) => r.unrelated),
      (r) => r.decision !== "different",
    ),
};

function share(rows, test) {
  return rows.length ? rows.filter(test).length / rows.length : Number.NaN;
}

function compare(selfFit, other) {
  const figures = {};
  for (const [name, statistic] of Object.entries(STATISTICS)) {
    const paired = selfFit.map((r, i) => ({ self: r, other: other[i], group: r.group }));
    const diff = (rows) => statistic(rows.map((p) => p.self)) - statistic(rows.map((p) => p.other));
    figures[name] = {
      selfFit: round(statistic(selfFit)),
      other: round(statistic(other)),
      difference: round(diff(paired)),
      interval: bootstrap(paired, diff, { samples, group: (p) => p.group }).map(round),
    };
  }
  return figures;
}

async function run(model) {
  const shifted = model.endsWith("+shifted");
  const embedder = shifted ? await startLocalEmbedder({ shifted: true }) : null;
  const worker = await startWorker({
    helperEmbedder: false,
    bindings: shifted ? { EMBEDDER_URL: embedder.url, EMBEDDING_MODEL: model } : {},
  });
  try {
    console.log(`\n${model}:`);
    const fitted = worker.client((await createTenantKey(worker.db, "self-fit")).key);
    const plain = worker.client((await createTenantKey(worker.db, "no fit")).key);
    const started = Date.now();
    const imported = await importFaqs(fitted, stackfaqNdjson());
    console.log(
      `  imported ${imported.json.counts.imported} FAQs with their dev paraphrases (${((Date.now() - started) / 1000).toFixed(0)} s)`,
    );
    const fitStarted = Date.now();
    const fit = await fitToEnd(fitted);
    const fitSeconds = (Date.now() - fitStarted) / 1000;
    console.log(`  fit ${fit.status}${fit.reason ? `: ${fit.reason}` : ` as version ${fit.version}`} in ${fitSeconds.toFixed(0)} s`);
    const baseline = (await expectOk(plain.v1.admin.calibration.$get())).json.inForce;
    const bySet = {};
    for (const [name, pairs] of Object.entries(sets)) {
      const self = await decide(fitted, pairs, `${name} (self-fit)`);
      const other = await decide(plain, pairs, `${name} (${baseline.source.kind})`);
      bySet[name] = { pairs: pairs.length, same: pairs.filter((p) => p.y).length, figures: compare(self, other) };
    }
    return {
      model,
      fit: { status: fit.status, reason: fit.reason, version: fit.version, seconds: round(fitSeconds), report: fit.report },
      baseline,
      sets: bySet,
    };
  } finally {
    await worker.close();
    embedder?.server.close();
  }
}

const RESULTS = "results/calibration/self-fit.json";
let results;
if (values["render-only"]) results = JSON.parse(readFileSync(RESULTS, "utf8"));
else {
  results = { when: new Date().toISOString(), commit: commit(), machine: machine(), samples, runs: [] };
  for (const model of ["use-lite-512", "use-lite-512+shifted"]) results.runs.push(await run(model));
  mkdirSync("results/calibration", { recursive: true });
  writeFileSync(RESULTS, `${JSON.stringify(results, null, 2)}\n`);
}
writeFileSync("docs/reports/calibration-self-fit.md", render(results));
console.log("\nwrote results/calibration/self-fit.json and docs/reports/calibration-self-fit.md");

function render(r) {
  const f = (x) => (Number.isFinite(x) ? x.toFixed(3) : "–");
  const iv = (i) => `[${f(i[0])}, ${f(i[1])}]`;
  const names = {
    samePrecision: "`same` precision",
    sameRecall: "`same` recall",
    differentBlocked: "different pairs above 0.80",
    unrelatedShown: "unrelated pairs shown as asked before",
    blockPrecision: "similarity > 0.80 (the show's block line): precision",
    blockRecall: "similarity > 0.80: recall",
  };
  const lines = [
    "# The self-fit, measured",
    "",
    "<!-- Generated by `npm run calibrate:self` (scripts/calibrate-self.mjs): do not edit by hand. -->",
    "",
    `Made by \`npm run calibrate:self\` on ${when(r.when)}, at commit \`${r.commit}\`, ${machineLine(r.machine)}`,
    "",
    "A tenant holds the stackfaq dev set as its knowledge base (each FAQ with its dev paraphrases as variants) and",
    "fits its scale from those FAQs alone (`POST /v1/admin/calibration/fit`, sources `faqs`). Every pair of",
    "`../shared/data/pairs/` is then decided by `POST /v1/similarity/explain` on that tenant and on a tenant",
    "without a fit, which reads the scale it would otherwise have. Differences are self-fit − other, with 95 %",
    `bootstrap intervals over question groups (${r.samples} resamples); an interval that holds 0 is within noise.`,
    "lcqmc-test is Chinese, which the local model does not embed: both tenants compare its pairs by shared words,",
    "so its rows are equal by construction.",
  ];
  for (const run of r.runs) {
    lines.push("", `## ${run.model}`, "");
    const rep = run.fit.report ?? {};
    lines.push(
      `Fit: **${run.fit.status}**${run.fit.reason ? ` (${run.fit.reason})` : `, version ${run.fit.version}`}, in ${run.fit.seconds.toFixed(0)} s; ` +
        `${rep.pairs ?? 0} pairs from the FAQs (${Object.entries(rep.bySource?.faqs ?? {})
          .map(([l, n]) => `${n} ${l}`)
          .join(", ")}); ` +
        `held-out band agreement ${f(rep.agreement?.crossValidated?.macro)} vs ${f(rep.agreement?.baseline?.macro)} for the scale it replaces.`,
      "",
      `The other tenant reads: **${run.baseline.source.kind}**${run.baseline.calibrated ? ` (${run.baseline.method})` : " (raw cosine)"}.`,
      "",
      "| set | pairs (same) | figure | self-fit | other | difference [95 %] |",
      "|---|---|---|---|---|---|",
    );
    for (const [name, set] of Object.entries(run.sets)) {
      for (const [figure, v] of Object.entries(set.figures)) {
        if (!Number.isFinite(v.selfFit)) continue;
        lines.push(
          `| ${name} | ${set.pairs} (${set.same}) | ${names[figure]} | ${f(v.selfFit)} | ${f(v.other)} | ${v.difference >= 0 ? "+" : ""}${f(v.difference)} ${iv(v.interval)} |`,
        );
      }
    }
  }
  return `${lines.join("\n")}\n`;
}
