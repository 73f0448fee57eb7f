// Pure math for `npm run decisions`: fitting the same-question decision's thresholds
// (src/decisions/same-question.ts) on labelled pairs and scoring each feature that decides
// "same question?" before and after. No I/O, no model. Unit-tested in test/unit/decisions-fit.test.ts.
import { hash32, isotonic } from "./calibration-fit.mjs";

/** The precision `same` must reach in every training set: the bar for an automatic action. */
export const TARGET_PRECISION = 0.97;
/** At most this share of a training set's unrelated pairs may score at or above relatedMin. */
export const UNRELATED_SHOWN_MAX = 0.01;
const SCORE_GRID = Array.from({ length: 41 }, (_, i) => 0.6 + i * 0.01);
const SHARED_GRID = Array.from({ length: 21 }, (_, i) => i * 0.05);

/** Wrong actions a set may have among `acted` at the target: ⌊(1 − target)·acted⌋, so under 34 actions none. */
export function wrongAllowed(acted, target = TARGET_PRECISION) {
  return Math.floor((1 - target) * acted + 1e-9);
}

/**
 * sameMin and sharedMin: `same` is no contrast, score ≥ sameMin and shared words ≥ sharedMin. Of the
 * pairs of lines on a grid that keep every set's wrong actions within wrongAllowed, the one with
 * the best mean recall over the sets (each domain counts the same however many pairs it has); the
 * lowest lines among equals. None: both 1, so nothing is decided automatically.
 */
export function fitSame(pairs) {
  const sets = [...bySet(pairs).values()].filter((of) => of.some((p) => p.y));
  let best = { recall: -1, sameMin: 1, sharedMin: 1 };
  for (const sameMin of SCORE_GRID) {
    for (const sharedMin of SHARED_GRID) {
      let recall = 0;
      let ok = true;
      for (const of of sets) {
        const m = actionMetrics(of, (p) => p.contrasts === 0 && p.score >= sameMin && p.shared >= sharedMin);
        if (m.wrong > wrongAllowed(m.acted)) ok = false;
        recall += m.recall / sets.length;
      }
      if (ok && recall > best.recall + 1e-12) best = { recall, sameMin, sharedMin };
    }
  }
  return best.recall > 0 ? { sameMin: round(best.sameMin), sharedMin: round(best.sharedMin) } : { sameMin: 1, sharedMin: 1 };
}

/** relatedMin: the lowest score above which at most UNRELATED_SHOWN_MAX of the unrelated pairs fall. */
export function fitRelatedMin(pairs) {
  const unrelated = pairs
    .filter(isUnrelated)
    .map((p) => p.score)
    .sort((a, b) => b - a);
  if (unrelated.length === 0) return null;
  return Math.min(1, unrelated[Math.floor(unrelated.length * UNRELATED_SHOWN_MAX)] + 1e-4);
}

/**
 * Unrelated for "asked before": labelled so by hand (product), or two threads' paraphrases that
 * share no content word (a stackfaq pair from two threads about one product, "Deleting a trello card"
 * / "Adding cards to trello", is related, not unrelated).
 */
export function isUnrelated(p) {
  return p.relation === "unrelated" && (p.set === "product" || p.shared === 0);
}

/** Where P(same | score) is read off the isotonic fit: every 0.05 from 0 to 1. */
const PROBABILITY_GRID = Array.from({ length: 21 }, (_, i) => i * 0.05);

/** P(same | score): the isotonic fit of the labels on the scores, read at PROBABILITY_GRID; none without pairs. */
export function fitProbability(pairs) {
  if (pairs.length === 0) return [];
  const blocks = isotonic(pairs.map((p) => ({ x: p.score, y: p.y })));
  return PROBABILITY_GRID.map((x) => {
    const below = blocks.filter((b) => b.xMin <= x);
    return [round(x), round((below[below.length - 1] ?? blocks[0]).y)];
  });
}

/**
 * Of the pairs with a contrast in Recall's own domains (the product set), the share that are not
 * the same question; 0.5 (no knowledge) without any. The contrasts were written for short support,
 * developer and show questions: in MQP's long patient narratives a number or a negation differs in
 * rewordings about as often as in different questions, so those sets do not speak for it.
 */
export function contrastConfidence(pairs) {
  const flagged = pairs.filter((p) => p.set === "product" && p.contrasts > 0);
  return flagged.length ? round(flagged.filter((p) => !p.y).length / flagged.length) : 0.5;
}

/** One scale's thresholds (src/decisions/same-question.ts DecisionThresholds); relatedMin where no pair is labelled unrelated. */
export function fitThresholds(pairs, { relatedMin } = {}) {
  const same = fitSame(pairs);
  const related = fitRelatedMin(pairs) ?? relatedMin;
  return {
    ...same,
    relatedMin: round(Math.min(same.sameMin, related)),
    probability: fitProbability(pairs.filter((p) => p.contrasts === 0)),
    contrastConfidence: contrastConfidence(pairs),
  };
}

/** k-fold CV by question group: each fold is decided with thresholds fitted on the others. Returns Map pair → thresholds. */
export function crossValidatedThresholds(pairs, { k = 5, fit }) {
  const fold = (p) => hash32(String(p.group)) % k;
  const out = new Map();
  const fits = [];
  for (let f = 0; f < k; f++) {
    const thresholds = fit(pairs.filter((p) => fold(p) !== f));
    fits.push(thresholds);
    for (const p of pairs) if (fold(p) === f) out.set(p, thresholds);
  }
  return { byPair: out, fits };
}

/**
 * An automatic action's figures over pairs (y = 1: the same question): precision of acting,
 * recall of the same-question pairs, and the share of all pairs acted on.
 */
export function actionMetrics(pairs, acts) {
  let tp = 0;
  let fp = 0;
  let positives = 0;
  for (const p of pairs) {
    if (p.y) positives++;
    if (!acts(p)) continue;
    if (p.y) tp++;
    else fp++;
  }
  return {
    precision: tp + fp ? tp / (tp + fp) : 1,
    recall: positives ? tp / positives : 0,
    automatic: pairs.length ? (tp + fp) / pairs.length : 0,
    acted: tp + fp,
    wrong: fp,
  };
}

function bySet(pairs) {
  const sets = new Map();
  for (const p of pairs) sets.set(p.set, [...(sets.get(p.set) ?? []), p]);
  return sets;
}

function round(x) {
  return Math.round(x * 1e4) / 1e4;
}
