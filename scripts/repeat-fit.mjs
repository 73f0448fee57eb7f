// Pure math for the show's repeat decision (src/core/ranking/repeat.ts) and for the pair metrics of
// `npm run calibrate -- --repeat`: fitting the map evidence → repeat similarity, k-fold
// cross-validation, per-band metrics and bootstrap intervals. No I/O, no model.
// Unit-tested in test/unit/calibration.test.ts.
import { applyKnots, auc, bootstrap as groupedBootstrap, boundary, hash32, median } from "./calibration-fit.mjs";

export { auc };

/** The seed-004 lines a repeat decision is read at (calibrated / repeat similarity). */
export const DUPLICATE_LINE = 0.85; // batch dedupe: "remove 85%+ similar within batch"
export const BLOCK_LINE = 0.8; // history: block > 0.80
export const PENALTY_LINE = 0.7; // history: penalize 0.70–0.80
export const BOOST_LINE = 0.6; // history: boost < 0.60
/** Bands reported by pairMetrics, high to low. */
export const BANDS = [
  { name: "≥ 0.85 duplicate", min: DUPLICATE_LINE, max: Infinity },
  { name: "0.80–0.85 blocked", min: BLOCK_LINE, max: DUPLICATE_LINE },
  { name: "0.70–0.80 penalized", min: PENALTY_LINE, max: BLOCK_LINE },
  { name: "0.60–0.70 neutral", min: BOOST_LINE, max: PENALTY_LINE },
  { name: "< 0.60 boosted", min: -Infinity, max: BOOST_LINE },
];
/**
 * The stackfaq threads are split in two halves by a hash of the thread id: the shipped fit sees
 * the pairs of one half only, and the show simulation (test/simulation/) streams only the other
 * half's threads, so the simulation judges the table on question wordings it was never fitted on.
 */
export const SIMULATION_THREADS_HALF = 1;
export function simulationHalf(threadId) {
  return hash32(`thread:${threadId}`) % 2;
}
/** Lexical weights tried by the fit; the one with the best training AUC wins. */
export const LEXICAL_WEIGHTS = [0, 0.25, 0.5, 0.75, 1, 1.25, 1.5, 1.75, 2];

/** evidence = raw cosine + w × lexical similarity (the combined score src/core/ranking/repeat.ts maps). */
export function evidence(pair, lexicalWeight) {
  return pair.raw + lexicalWeight * pair.lex;
}

/**
 * Fits a repeat model on pairs { raw, lex, label: paraphrase|related|unrelated, set? }: the lexical
 * weight with the best AUC (duplicates against the rest; with several pair sets, the mean of their
 * AUCs, so each domain counts the same however many pairs it has), then a monotone map of the evidence
 * score with knots from balanced isotonic boundaries (scripts/calibration-fit.mjs, boundary()):
 *   0.80 (block)  where a pair becomes more likely a duplicate than a different pair (related and
 *                 unrelated pooled, each class weighing the same)
 *   0.60 (boost)  where a pair becomes more likely related (near-topic) than unrelated
 *   0.30 / 0.90   the median unrelated pair / the median duplicate (dropped when not above 0.80's knot)
 *   0 / 1         the ends of the evidence range, −1 and 1 + weight.
 * No reference anchors: seed 004's example pairs are printed as a sanity check only.
 */
export function fitRepeat(pairs, { weights = LEXICAL_WEIGHTS } = {}) {
  const labelled = pairs.map((p) => ({ ...p, y: p.label === "paraphrase" ? 1 : 0 }));
  let best = { lexicalWeight: weights[0], auc: -1 };
  const bySet = new Map();
  for (const p of labelled) (bySet.get(p.set) ?? bySet.set(p.set, []).get(p.set)).push(p);
  for (const w of weights) {
    let a = 0;
    for (const of of bySet.values()) a += auc(of, (p) => evidence(p, w)) / bySet.size;
    if (a > best.auc + 1e-9) best = { lexicalWeight: w, auc: a };
  }
  const w = best.lexicalWeight;
  const scores = (test) => pairs.filter(test).map((p) => evidence(p, w));
  const duplicates = scores((p) => p.label === "paraphrase");
  const different = scores((p) => p.label !== "paraphrase");
  const related = scores((p) => p.label === "related");
  const unrelated = scores((p) => p.label === "unrelated");
  const block = boundary(different, duplicates);
  const near = Math.min(boundary(unrelated, related) ?? block - 0.1, block - 0.01);
  const candidates = [
    [-1, 0],
    [median(unrelated) ?? near - 0.1, 0.3],
    [near, BOOST_LINE],
    [block, BLOCK_LINE],
    [median(duplicates), 0.9],
    [1 + w, 1],
  ];
  const knots = [];
  for (const [x, y] of candidates) {
    const prev = knots[knots.length - 1];
    if (!prev || (x > prev[0] + 1e-4 && y > prev[1])) knots.push([round(x), y]);
  }
  return { lexicalWeight: w, trainingAuc: round(best.auc), knots, boundaries: { boost: round(near), block: round(block) } };
}

export function repeatScore(pair, model) {
  return applyKnots(evidence(pair, model.lexicalWeight), model.knots);
}

/**
 * k-fold cross-validation: pairs are split by `group` (pairs sharing a question stay together),
 * each fold is scored by a model fitted on the other folds. Returns Map pair → held-out score.
 */
export function crossValidatedScores(pairs, { k = 5, group = (p) => p.group, fit = fitRepeat, score = repeatScore } = {}) {
  const fold = (p) => hash32(String(group(p))) % k;
  const scores = new Map();
  const models = [];
  for (let f = 0; f < k; f++) {
    const model = fit(pairs.filter((p) => fold(p) !== f));
    models.push(model);
    for (const p of pairs.filter((q) => fold(q) === f)) scores.set(p, score(p, model));
  }
  return { scores, models };
}

/**
 * Metrics of a scored pair set (y = 1 duplicate): precision/recall of "duplicate" at ≥ 0.85 and of
 * "block" at > 0.80, and the count of duplicates / different pairs in each band.
 */
export function pairMetrics(pairs, score) {
  const at = (test) => {
    let tp = 0;
    let fp = 0;
    let positives = 0;
    for (const p of pairs) {
      const s = score(p);
      if (p.y) positives++;
      if (test(s) && p.y) tp++;
      else if (test(s)) fp++;
    }
    return { precision: tp + fp ? tp / (tp + fp) : 1, recall: positives ? tp / positives : 0 };
  };
  const bands = BANDS.map((b) => {
    const of = pairs.filter((p) => {
      const s = score(p);
      return s >= b.min && s < b.max;
    });
    return { band: b.name, duplicate: of.filter((p) => p.y).length, different: of.filter((p) => !p.y).length };
  });
  return { n: pairs.length, duplicate: at((s) => s >= DUPLICATE_LINE), block: at((s) => s > BLOCK_LINE), bands, auc: auc(pairs, score) };
}

/** 95 % bootstrap interval over question groups (src/core/calibration/fit.ts), grouped by `p.group` unless told. */
export function bootstrap(pairs, statistic, options = {}) {
  return groupedBootstrap(pairs, statistic, { group: (p) => p.group, ...options });
}

function round(x) {
  return Math.round(x * 1e4) / 1e4;
}
