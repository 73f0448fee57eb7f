// `npm run calibrate -- --repeat --evidence`: what each candidate evidence (scripts/repeat-evidence.mjs)
// adds to the repeat decision, measured on the same English pairs as the repeat fit. For each
// feature set, a logistic model is fitted and scored by k-fold cross-validation (folds by question
// group); printed per set: held-out AUC, best recall at precision ≥ 0.95, best precision at recall
// ≥ 0.80, each with a 95 % bootstrap interval over question groups. "Best over every threshold" is
// an upper bound for any map of that score onto the seeds' scale.
//
// References (IDF, density, mean vector) are the texts of the pair set itself, labels unused: in a
// show the same role would fall to the show's window of questions.
import { hash32, rng } from "./calibration-fit.mjs";
import { cachedEmbeddings } from "./embedding-cache.mjs";
import {
  centeredCosine,
  differingWords,
  documentFrequencies,
  dot,
  fitLogistic,
  idfOverlap,
  lengthRatio,
  localScaledCosine,
  logit,
  meanVector,
  neighbourMean,
  numberMismatch,
  opening,
  operatingPoints,
  symmetricDifference,
} from "./repeat-evidence.mjs";

export const FEATURE_SETS = [
  ["cosine"],
  ["cosine", "overlap"],
  ["cosine", "overlap", "idfOverlap", "differingShare", "rarestDiffering"],
  ["cosine", "overlap", "numberMismatch", "sameOpening", "sameQuestionType", "lengthRatio"],
  ["cosine", "overlap", "localScaled", "centered"],
  ["cosine", "overlap", "contentView"],
  ["cosine", "overlap", "differenceView"],
];
const ALL = [...new Set(FEATURE_SETS.flat())];
FEATURE_SETS.push(ALL);

/**
 * @param {object} o
 * @param {{set: string, group: string, y: number, label: string, a: string, b: string, raw: number, lex: number}[]} o.pairs
 * @param {Map<string, Float32Array>} o.vectors  text → USE-lite vector (every pair text)
 * @param {{id: string, embed: (t: string[]) => Promise<number[][]>}} o.model
 * @param {{lexicalTerms: (t: string) => string[], repeatTerms: (t: string[]) => string[], detectQuestionType: (t: string) => string}} o.lib
 * @param {(p: object) => number} o.shipped  held-out score of the shipped evidence (cosine + w × overlap, mapped)
 */
export async function reportEvidence({ pairs, vectors, model, lib, shipped, folds, samples }) {
  const stems = new Map();
  const stemsOf = (t) => stems.get(t) ?? stems.set(t, lib.repeatTerms(lib.lexicalTerms(t))).get(t);
  const texts = [...new Set(pairs.flatMap((p) => [p.a, p.b]))];
  const contentText = (t) => lib.lexicalTerms(t).join(" ");
  const differences = new Map(pairs.map((p) => [p, symmetricDifference(lib.lexicalTerms(p.a), lib.lexicalTerms(p.b))]));
  const second = await cachedEmbeddings(model, [
    ...texts.map(contentText),
    ...[...differences.values()].flatMap((d) => [d.onlyA.join(" "), d.onlyB.join(" ")]).filter(Boolean),
  ]);
  const viewCosine = (x, y) => (x && y ? dot(second.get(x), second.get(y)) : x === y ? 1 : 0);

  const bySet = new Map();
  for (const p of pairs) bySet.set(p.set, [...(bySet.get(p.set) ?? []), p]);
  const rows = [];
  for (const of of bySet.values()) {
    const own = [...new Set(of.flatMap((p) => [p.a, p.b]))];
    const reference = documentFrequencies(own.map(stemsOf));
    const refVectors = own.map((t) => vectors.get(t));
    const mean = meanVector(refVectors);
    const density = new Map(own.map((t) => [t, neighbourMean(vectors.get(t), refVectors)]));
    for (const p of of) {
      const d = differences.get(p);
      const words = differingWords(stemsOf(p.a), stemsOf(p.b), reference);
      rows.push({
        ...p,
        cosine: p.raw,
        overlap: p.lex,
        idfOverlap: idfOverlap(stemsOf(p.a), stemsOf(p.b), reference),
        differingShare: words.share,
        rarestDiffering: words.rarest,
        numberMismatch: numberMismatch(p.a, p.b),
        sameOpening: opening(p.a) === opening(p.b) ? 1 : 0,
        sameQuestionType: lib.detectQuestionType(p.a) === lib.detectQuestionType(p.b) ? 1 : 0,
        lengthRatio: lengthRatio(stemsOf(p.a), stemsOf(p.b)),
        localScaled: localScaledCosine(p.raw, density.get(p.a), density.get(p.b)),
        centered: centeredCosine(vectors.get(p.a), vectors.get(p.b), mean),
        contentView: viewCosine(contentText(p.a), contentText(p.b)),
        differenceView: viewCosine(d.onlyA.join(" "), d.onlyB.join(" ")),
        shipped: shipped(p),
      });
    }
  }

  const f = (x) => x.toFixed(3);
  console.log(
    `\nevidence study (${folds}-fold CV by question group; a logistic model per feature set, fitted within each row's pair set, so in-domain: ` +
      `an optimistic bound; bootstrap ${samples} resamples of groups, 95 % intervals)`,
  );
  console.log(`${"set".padEnd(22)} ${"evidence".padEnd(58)} ${"AUC".padEnd(20)} ${"R at P ≥ 0.95".padEnd(20)} P at R ≥ 0.80`);
  const sets = [
    ["mqp", rows.filter((r) => r.set === "mqp")],
    ["stackfaq", rows.filter((r) => r.set === "stackfaq")],
    ["stackfaq hard", rows.filter((r) => r.set === "stackfaq" && r.label !== "unrelated")],
    ["en both", rows],
  ];
  for (const [name, of] of sets) {
    const line = (label, score) => {
      const m = operatingPoints(of, score);
      const ci = intervals(of, score, samples);
      const cell = (k) => `${f(m[k])} [${f(ci[k][0])}–${f(ci[k][1])}]`.padEnd(20);
      console.log(
        `${`${name} (${of.length})`.padEnd(22)} ${label.padEnd(58)} ${cell("auc")} ${cell("recallAtPrecision")} ${cell("precisionAtRecall")}`,
      );
    };
    line("shipped: cosine + w × overlap, repeat map", (r) => r.shipped);
    for (const features of FEATURE_SETS) {
      const held = crossValidatedLogit(of, features, folds);
      line(`logistic: ${features === ALL ? "all of the above" : features.join(" + ")}`, (r) => held.get(r));
    }
  }
  const final = fitLogistic(rows, ALL);
  console.log(
    `logistic weights on all English pairs, every feature (for reading, not shipped): bias ${f(final.bias)}; ${Object.entries(final.weights)
      .map(([k, w]) => `${k} ${f(w)}`)
      .join(", ")}`,
  );
}

function crossValidatedLogit(rows, features, k) {
  const fold = (r) => hash32(r.group) % k;
  const scores = new Map();
  for (let i = 0; i < k; i++) {
    const model = fitLogistic(
      rows.filter((r) => fold(r) !== i),
      features,
    );
    for (const r of rows.filter((q) => fold(q) === i)) scores.set(r, logit(r, model));
  }
  return scores;
}

/** One resample of question groups gives all three statistics (same scheme as repeat-fit.mjs bootstrap()). */
function intervals(rows, score, samples, seed = 20251019) {
  const byGroup = new Map();
  for (const r of rows) byGroup.set(r.group, [...(byGroup.get(r.group) ?? []), r]);
  const groups = [...byGroup.values()];
  const random = rng(seed);
  const values = { auc: [], recallAtPrecision: [], precisionAtRecall: [] };
  for (let s = 0; s < samples; s++) {
    const sample = [];
    for (let i = 0; i < groups.length; i++) sample.push(...groups[Math.floor(random() * groups.length)]);
    const m = operatingPoints(sample, score);
    for (const k of Object.keys(values)) values[k].push(m[k]);
  }
  const at = (v, q) => v.sort((x, y) => x - y)[Math.min(v.length - 1, Math.max(0, Math.round(q * (v.length - 1))))];
  return Object.fromEntries(Object.entries(values).map(([k, v]) => [k, [at(v, 0.025), at(v, 0.975)]]));
}
