// Candidate evidence for the show's repeat decision beyond cosine + word overlap, as pure functions
// with named parameters, and the small model that combines them (L2 logistic regression). Measured
// on the labelled pairs by `npm run calibrate -- --repeat --evidence` (scripts/calibrate-repeat.mjs)
// with cross-validation by question group and bootstrap intervals; docs/design/ranking-and-decisions.md ("Show memory") gives the
// figures and why none of it is in the shipped decision. No I/O, no model.
// Unit-tested in test/unit/show-repeat.test.ts.
import { auc } from "./repeat-fit.mjs";

/** Named parameters of the evidence functions below (the values measured). */
export const EVIDENCE_PARAMETERS = Object.freeze({
  /** Added to every inverse document frequency, so a term found in every reference text still counts a little. */
  idfFloor: 1,
  /** Neighbours whose mean cosine is a text's local density (localScaledCosine; CSLS, Conneau et al. 2018). */
  localNeighbours: 5,
  /** Interrogative openings compared by sameOpening; the first found in the lower-cased text is its opening. */
  openings: ["what", "how", "why", "when", "where", "who", "which", "can", "could", "is", "are", "does", "do", "should", "will", "would"],
});

/** Document frequencies of (stemmed) term sets: the reference an IDF weighs against (a corpus, or a show's window). */
export function documentFrequencies(termSets) {
  const df = new Map();
  for (const terms of termSets) for (const t of new Set(terms)) df.set(t, (df.get(t) ?? 0) + 1);
  return { df, n: termSets.length };
}

/** ln((n + 1) / (df + 1)) + idfFloor: rare terms (a key medical term, a product name) weigh more than the topic's words. */
export function idf(term, reference, { idfFloor = EVIDENCE_PARAMETERS.idfFloor } = {}) {
  return Math.log((reference.n + 1) / ((reference.df.get(term) ?? 0) + 1)) + idfFloor;
}

/** Ochiai overlap of two term sets with each term weighted by its IDF, 0..1. */
export function idfOverlap(a, b, reference, options) {
  const setB = new Set(b);
  let shared = 0;
  let normA = 0;
  let normB = 0;
  for (const t of new Set(a)) {
    const w = idf(t, reference, options) ** 2;
    normA += w;
    if (setB.has(t)) shared += w;
  }
  for (const t of setB) normB += idf(t, reference, options) ** 2;
  return normA && normB ? shared / Math.sqrt(normA * normB) : 0;
}

/**
 * The differing content words: the share of the pair's IDF mass that lies in the symmetric
 * difference of the two term sets (0 = the same words, 1 = nothing shared), and the IDF of the
 * rarest differing term over the largest possible IDF (a neighbour often differs by one key term).
 */
export function differingWords(a, b, reference, options) {
  const setA = new Set(a);
  const setB = new Set(b);
  let total = 0;
  let differing = 0;
  let rarest = 0;
  for (const [mine, other] of [
    [setA, setB],
    [setB, setA],
  ]) {
    for (const t of mine) {
      const w = idf(t, reference, options);
      total += w;
      if (!other.has(t)) {
        differing += w;
        rarest = Math.max(rarest, w);
      }
    }
  }
  const maxIdf = Math.log(reference.n + 1) + (options?.idfFloor ?? EVIDENCE_PARAMETERS.idfFloor);
  return { share: total ? differing / total : 0, rarest: rarest / maxIdf };
}

/** The terms only one side has, as two word lists (the "difference view" embeds each list). */
export function symmetricDifference(a, b) {
  const setA = new Set(a);
  const setB = new Set(b);
  return { onlyA: [...setA].filter((t) => !setB.has(t)), onlyB: [...setB].filter((t) => !setA.has(t)) };
}

/** 1 when a number occurs in one question and not in the other (entity/number disagreement), else 0. */
export function numberMismatch(textA, textB) {
  const numbers = (t) => new Set(t.match(/\d+(?:[.,]\d+)?/g) ?? []);
  const na = numbers(textA);
  const nb = numbers(textB);
  return [...na].some((x) => !nb.has(x)) || [...nb].some((x) => !na.has(x)) ? 1 : 0;
}

/** The first interrogative of EVIDENCE_PARAMETERS.openings in a question, or "" when none. */
export function opening(text, { openings = EVIDENCE_PARAMETERS.openings } = {}) {
  const words = text.toLowerCase().match(/[a-z]+/g) ?? [];
  return words.find((w) => openings.includes(w)) ?? "";
}

/** min/max of the two term-set sizes: 1 for equally long questions. */
export function lengthRatio(a, b) {
  const na = new Set(a).size;
  const nb = new Set(b).size;
  return Math.max(na, nb) ? Math.min(na, nb) / Math.max(na, nb) : 1;
}

export function dot(a, b) {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i] * b[i];
  return s;
}

/** Mean cosine of a unit vector to its k nearest reference vectors, itself (cosine ≈ 1) excluded. */
export function neighbourMean(v, reference, { localNeighbours = EVIDENCE_PARAMETERS.localNeighbours } = {}) {
  const sims = reference
    .map((u) => dot(u, v))
    .filter((s) => s < 1 - 1e-6)
    .sort((x, y) => y - x)
    .slice(0, localNeighbours);
  return sims.length ? sims.reduce((s, x) => s + x, 0) / sims.length : 0;
}

/** CSLS: 2·cos − density(a) − density(b); a pair in a crowded topic must be closer to count as close. */
export function localScaledCosine(cosine, densityA, densityB) {
  return 2 * cosine - densityA - densityB;
}

/** Cosine after subtracting the reference's mean vector (the shared topic direction), renormalised. */
export function centeredCosine(a, b, mean) {
  const ca = a.map((x, i) => x - mean[i]);
  const cb = b.map((x, i) => x - mean[i]);
  const n = Math.sqrt(dot(ca, ca) * dot(cb, cb));
  return n ? dot(ca, cb) / n : 0;
}

export function meanVector(vectors) {
  const mean = new Array(vectors[0]?.length ?? 0).fill(0);
  for (const v of vectors) for (let i = 0; i < mean.length; i++) mean[i] += v[i] / vectors.length;
  return mean;
}

/** Named parameters of the logistic fit. */
export const LOGISTIC_PARAMETERS = Object.freeze({ l2: 1e-3, iterations: 500, learningRate: 0.5 });

/**
 * L2-regularised logistic regression of y (1 duplicate) on the named features of each row, by
 * full-batch gradient descent on standardised features. Returns the weights on the features'
 * own scale and the bias: logit = bias + Σ weight·feature.
 */
export function fitLogistic(rows, features, { l2, iterations, learningRate } = LOGISTIC_PARAMETERS) {
  const mu = features.map((f) => rows.reduce((s, r) => s + r[f], 0) / rows.length);
  const sd = features.map((f, i) => Math.sqrt(rows.reduce((s, r) => s + (r[f] - mu[i]) ** 2, 0) / rows.length) || 1);
  const x = rows.map((r) => features.map((f, i) => (r[f] - mu[i]) / sd[i]));
  let w = features.map(() => 0);
  let b = 0;
  for (let it = 0; it < iterations; it++) {
    const g = w.map(() => 0);
    let gb = 0;
    x.forEach((xi, n) => {
      const z = b + xi.reduce((s, v, i) => s + v * w[i], 0);
      const e = 1 / (1 + Math.exp(-z)) - rows[n].y;
      gb += e;
      xi.forEach((v, i) => (g[i] += e * v));
    });
    w = w.map((wi, i) => wi - learningRate * (g[i] / x.length + l2 * wi));
    b -= (learningRate * gb) / x.length;
  }
  const weights = Object.fromEntries(features.map((f, i) => [f, w[i] / sd[i]]));
  const bias = b - features.reduce((s, f, i) => s + (w[i] * mu[i]) / sd[i], 0);
  return { weights, bias };
}

export function logit(row, model) {
  return Object.entries(model.weights).reduce((s, [f, w]) => s + w * row[f], model.bias);
}

/**
 * What a decision built on score() can reach: AUC, the best recall at precision ≥ `precision`
 * and the best precision at recall ≥ `recall`, over every threshold (the goal is
 * P ≥ 0.95 with R ≥ 0.80 at the duplicate line, so both ends are printed).
 */
export function operatingPoints(rows, score, { precision = 0.95, recall = 0.8 } = {}) {
  const sorted = rows.map((r) => [score(r), r.y]).sort((p, q) => q[0] - p[0]);
  const positives = sorted.filter(([, y]) => y).length;
  let tp = 0;
  let fp = 0;
  let recallAtPrecision = 0;
  let precisionAtRecall = 0;
  for (let i = 0; i < sorted.length; i++) {
    if (sorted[i][1]) tp++;
    else fp++;
    if (i + 1 < sorted.length && sorted[i + 1][0] === sorted[i][0]) continue; // a threshold takes all ties
    const p = tp / (tp + fp);
    const r = positives ? tp / positives : 0;
    if (p >= precision) recallAtPrecision = Math.max(recallAtPrecision, r);
    if (r >= recall) precisionAtRecall = Math.max(precisionAtRecall, p);
  }
  return { auc: auc(rows, score), recallAtPrecision, precisionAtRecall };
}
