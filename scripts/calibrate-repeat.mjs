// `npm run calibrate -- --repeat [--data ../shared/data] [--folds 5] [--samples 500] [--dry-run] [--evidence]`
// (--evidence: also the study of further evidence, scripts/calibrate-evidence.mjs)
//
// The show's repeat decision measured and fitted on labelled question pairs with hard negatives
// (docs/design/ranking-and-decisions.md, "Show memory" and "Calibrated similarity"). English (local model USE-lite):
//   mqp        pairs/mqp: a doctor's same-intent rewrite (duplicate) or a near-topic different
//              question (different)
//   stackfaq   from stackfaq/queries.jsonl: each paraphrase ↔ another paraphrase of its thread
//              (duplicate), ↔ its nearest paraphrase of another thread by cosine (hard different),
//              ↔ a random paraphrase of another thread (different)
// Chinese: pairs/lcqmc-test through the lexical fallback the show uses for texts USE-lite cannot
// embed (no fitted parameter).
// BEFORE = the global calibration of raw cosine (what the show compared until now); AFTER = the
// repeat map (src/core/ranking/repeat.ts) fitted on both English sets, scored by k-fold cross-
// validation (folds by question group), with 95 % bootstrap intervals over question groups.
// Writes, unless --dry-run, src/core/scale/tables/<model>.repeat.json (the fit on every English
// pair: what ships) and test/simulation/tables/<model>.repeat.held-out.json (the same fit without the
// stackfaq threads the show simulation streams, SIMULATION_THREADS_HALF: what the simulation judges).
import { writeFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { importTs } from "../bench/support/bundle.mjs";
import { applyKnots, cosine } from "./calibration-fit.mjs";
import { cachedEmbeddings } from "./embedding-cache.mjs";
import { readJsonl as readSet, stackfaqThreadPairs } from "./pair-sets.mjs";
import {
  BANDS,
  SIMULATION_THREADS_HALF,
  bootstrap,
  crossValidatedScores,
  fitRepeat,
  pairMetrics,
  repeatScore,
  simulationHalf,
} from "./repeat-fit.mjs";

const { values } = parseArgs({
  options: {
    repeat: { type: "boolean" },
    data: { type: "string", default: "../shared/data" },
    model: { type: "string", default: "use-lite-512" },
    folds: { type: "string", default: "5" },
    samples: { type: "string", default: "500" },
    out: { type: "string", default: "src/core/scale/tables" },
    "dry-run": { type: "boolean", default: false },
    evidence: { type: "boolean", default: false },
  },
});
if (values.model !== "use-lite-512") fail(`--repeat: only use-lite-512 can be embedded offline here (got ${values.model})`);
const folds = Number(values.folds);
const samples = Number(values.samples);
const lib = await importTs(new URL("./entries/repeat-measure.ts", import.meta.url));
const globalCalibration = lib.calibrationFor(values.model);

const readJsonl = (file) => readSet(values.data, file);
const mqp = readJsonl("pairs/mqp/pairs.jsonl");
const stackfaq = readJsonl("stackfaq/queries.jsonl");
const lcqmc = readJsonl("pairs/lcqmc-test/pairs.jsonl");

const SANITY = [
  ["What evidence supports machine consciousness?", "Can we prove AI systems are conscious?", "seed 004: 87 % (a repeat)"],
  ["What evidence supports machine consciousness?", "How do we know if AI has subjective experience?", "seed 004: 82 % (a repeat)"],
  ["Will quantum computers break encryption soon?", "Can we prove AI systems are conscious?", "issue 14: different"],
  ["Is the brain just a biological computer?", "What evidence supports machine consciousness?", "issue 14: different"],
];

const { loadLocalModel } = await import("./local-embedder.mjs");
const model = await loadLocalModel();
const english = [...mqp.flatMap((p) => [p.a, p.b]), ...stackfaq.map((q) => q.text), ...SANITY.flatMap(([a, b]) => [a, b])];
const vectors = await cachedEmbeddings(model, english);
const terms = new Map();
const termsOf = (t) => terms.get(t) ?? terms.set(t, lib.lexicalTerms(t)).get(t);
const measure = (a, b) => ({ raw: cosine(vectors.get(a), vectors.get(b)), lex: lib.lexicalEvidence(termsOf(a), termsOf(b)) });

const en = [];
for (const p of mqp) {
  const duplicate = p.label === "duplicate";
  en.push({
    set: "mqp",
    group: `mqp:${p.a}`,
    y: duplicate ? 1 : 0,
    label: duplicate ? "paraphrase" : "related",
    a: p.a,
    b: p.b,
    ...measure(p.a, p.b),
  });
}
for (const { q, thread, twin, nearest, stranger } of stackfaqThreadPairs(stackfaq, (x, y) => measure(x.text, y.text).raw)) {
  const row = (b, y, label) => ({
    set: "stackfaq",
    group: `stackfaq:${thread}`,
    thread,
    y,
    label,
    a: q.text,
    b: b.text,
    ...measure(q.text, b.text),
  });
  en.push(row(twin, 1, "paraphrase"));
  en.push(row(nearest, 0, "related"));
  en.push(row(stranger, 0, "unrelated"));
}
const zh = lcqmc.map((p) => ({
  set: "lcqmc-test",
  group: `lcqmc:${p.a}`,
  y: p.label === "duplicate" ? 1 : 0,
  lex: lib.lexicalSimilarity(termsOf(p.a), termsOf(p.b)),
}));

const cv = crossValidatedScores(en, { k: folds });
const final = fitRepeat(en);
// The same fit without the stackfaq threads the show simulation streams: the simulation's held-out table.
const heldOutPairs = en.filter((p) => p.set !== "stackfaq" || simulationHalf(p.thread) !== SIMULATION_THREADS_HALF);
const heldOut = fitRepeat(heldOutPairs);
const before = (p) => applyKnots(p.raw, globalCalibration.knots);
const after = (p) => cv.scores.get(p);

console.log(
  `model ${values.model}; English pairs: mqp ${en.filter((p) => p.set === "mqp").length}, stackfaq ${en.filter((p) => p.set === "stackfaq").length}; Chinese: lcqmc-test ${zh.length}`,
);
console.log(
  `${folds}-fold CV (by question group): lexical weight per fold ${cv.models.map((m) => m.lexicalWeight).join(", ")}; bootstrap ${samples} resamples of question groups, 95 % intervals`,
);
const header = `${"set".padEnd(22)} ${"method".padEnd(30)} ${"AUC".padEnd(6)} ${"P ≥0.85".padEnd(20)} ${"R ≥0.85".padEnd(20)} ${"P >0.80".padEnd(7)} ${"R >0.80".padEnd(7)} bands dup/different: ${BANDS.map((b) => b.name).join(" | ")}`;
console.log(header);
const print = (set, method, pairs, score) => {
  const m = pairMetrics(pairs, score);
  const ci = (stat) => bootstrap(pairs, (s) => stat(pairMetrics(s, score)), { samples });
  const [pLo, pHi] = ci((x) => x.duplicate.precision);
  const [rLo, rHi] = ci((x) => x.duplicate.recall);
  const f = (x) => x.toFixed(3);
  console.log(
    `${set.padEnd(22)} ${method.padEnd(30)} ${f(m.auc).padEnd(6)} ${`${f(m.duplicate.precision)} [${f(pLo)}–${f(pHi)}]`.padEnd(20)} ${`${f(m.duplicate.recall)} [${f(rLo)}–${f(rHi)}]`.padEnd(20)} ${f(m.block.precision).padEnd(7)} ${f(m.block.recall).padEnd(7)} ${m.bands.map((b) => `${b.duplicate}/${b.different}`).join(" | ")}`,
  );
  // The share of duplicates in each band, with its interval: the related band (0.70–0.80) should hold few.
  const shares = BANDS.map((band) => {
    const share = (sample) => {
      let dup = 0;
      let all = 0;
      for (const p of sample) {
        const x = score(p);
        if (x < band.min || x >= band.max) continue;
        all++;
        if (p.y) dup++;
      }
      return all ? dup / all : 0;
    };
    const [lo, hi] = bootstrap(pairs, share, { samples });
    return `${f(share(pairs))} [${f(lo)}–${f(hi)}]`;
  });
  console.log(`${"".padEnd(22)}   duplicate share per band: ${shares.join(" | ")}`);
};
for (const set of ["mqp", "stackfaq"]) {
  const of = en.filter((p) => p.set === set);
  print(`${set} (${of.length})`, "before: calibrated cosine", of, before);
  print(`${set} (${of.length})`, `after: repeat map, ${folds}-fold CV`, of, after);
  if (set === "stackfaq") {
    const hard = of.filter((p) => p.label !== "unrelated");
    print(`stackfaq hard (${hard.length})`, "before: calibrated cosine", hard, before);
    print(`stackfaq hard (${hard.length})`, `after: repeat map, ${folds}-fold CV`, hard, after);
  }
}
print(`en both (${en.length})`, "before: calibrated cosine", en, before);
print(`en both (${en.length})`, `after: repeat map, ${folds}-fold CV`, en, after);
print(`lcqmc-test zh (${zh.length})`, "lexical fallback (no fit)", zh, (p) => p.lex);

console.log(
  `final fit (shipped) on all ${en.length} English pairs: lexical weight ${final.lexicalWeight} (training AUC ${final.trainingAuc}); evidence boundaries ${JSON.stringify(final.boundaries)}; knots ${JSON.stringify(final.knots)}`,
);
console.log(
  `held-out fit for the show simulation on ${heldOutPairs.length} pairs (stackfaq threads it streams left out): lexical weight ${heldOut.lexicalWeight}; knots ${JSON.stringify(heldOut.knots)}`,
);
console.log("sanity (not anchors):");
for (const [a, b, note] of SANITY) {
  const m = measure(a, b);
  console.log(
    `  raw ${m.raw.toFixed(3)} lexical ${m.lex.toFixed(3)} → before ${before(m).toFixed(3)}, after ${repeatScore(m, final).toFixed(3)}  (${note}) "${a}" / "${b}"`,
  );
}
if (values.evidence) {
  const { reportEvidence } = await import("./calibrate-evidence.mjs");
  await reportEvidence({ pairs: en, vectors, model, lib, shipped: after, folds, samples });
}
if (values["dry-run"]) {
  console.log("dry run: no table written");
} else {
  const write = (file, model, pairs, use) => {
    const table = {
      model: values.model,
      method: "isotonic boundaries on raw cosine + lexicalWeight × Ochiai of stemmed content terms",
      fittedOn: `../shared/data pairs/mqp (${pairs.filter((p) => p.set === "mqp").length}) + stackfaq thread pairs (${pairs.filter((p) => p.set === "stackfaq").length})${use}`,
      lexicalWeight: model.lexicalWeight,
      boundaries: model.boundaries,
      knots: model.knots,
    };
    writeFileSync(file, JSON.stringify(table, null, 2) + "\n");
    console.log(`wrote ${file}`);
  };
  write(path.join(values.out, `${values.model}.repeat.json`), final, en, "");
  write(
    path.join("test", "simulation", "tables", `${values.model}.repeat.held-out.json`),
    heldOut,
    heldOutPairs,
    "; held out: the stackfaq threads `npm run simulate:show` streams (scripts/repeat-fit.mjs SIMULATION_THREADS_HALF)",
  );
}

function fail(message) {
  console.error(message);
  process.exit(1);
}
