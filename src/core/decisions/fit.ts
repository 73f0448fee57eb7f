/**
 * Pure math of fitting the same-question decision's thresholds (same-question.ts) on labelled pairs,
 * and of scoring an automatic action. No I/O, no model. One implementation serves `npm run decisions`
 * (scripts/decisions-fit.mjs re-exports it) and the fit a deployed Worker runs on its own pairs.
 */
import { foldOf, isotonic, round } from "../calibration/fit";
import { type FeatureVector, fitLogistic, probability } from "./logistic";
import type { DecisionThresholds, SameQuestionLogistic } from "./same-question";

/** A labelled pair as the fit reads it. */
export interface DecisionPair {
  /** The pair set (a domain or a source): each must keep its own wrong actions within bounds. */
  set: string;
  /** Pairs sharing a question share a group: folds and bootstrap resample groups. */
  group: string;
  /** 1: the same question. */
  y: number;
  /** unrelated | related | same | …, when known. */
  relation?: string;
  /** The decision's score (same-question.ts Evidence.score). */
  score: number;
  /** Shared content words (Ochiai, 0..1). */
  shared: number;
  /** How many contrasts contrasts.ts finds. */
  contrasts: number;
}

/** The precision `same` must reach in every training set: the bar for an automatic action. */
export const TARGET_PRECISION = 0.97;
/** At most this share of a training set's unrelated pairs may score at or above relatedMin. */
export const UNRELATED_SHOWN_MAX = 0.01;
const SCORE_GRID = Array.from({ length: 41 }, (_, i) => 0.6 + i * 0.01);
const SHARED_GRID = Array.from({ length: 21 }, (_, i) => i * 0.05);

/** Wrong actions a set may have among `acted` at the target: ⌊(1 − target)·acted⌋, so under 34 actions none. */
export function wrongAllowed(acted: number, target = TARGET_PRECISION): number {
  return Math.floor((1 - target) * acted + 1e-9);
}

/**
 * sameMin and sharedMin: `same` is no contrast, score ≥ sameMin and shared words ≥ sharedMin. Of the
 * pairs of lines on a grid that keep every set's wrong actions within wrongAllowed, the one with
 * the best mean recall over the sets (each domain counts the same however many pairs it has); the
 * lowest lines among equals. None: both 1, so nothing is decided automatically. A given `sharedMin`
 * is kept, and only the score line is fitted.
 */
export function fitSame(
  pairs: readonly DecisionPair[],
  { sharedMin: fixed }: { sharedMin?: number } = {},
): { sameMin: number; sharedMin: number } {
  const sets = [...bySet(pairs).values()].filter((of) => of.some((p) => p.y));
  let best = { recall: -1, sameMin: 1, sharedMin: 1 };
  for (const sameMin of SCORE_GRID) {
    for (const sharedMin of fixed === undefined ? SHARED_GRID : [fixed]) {
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
export function fitRelatedMin(pairs: readonly DecisionPair[]): number | null {
  const unrelated = pairs
    .filter(isUnrelated)
    .map((p) => p.score)
    .sort((a, b) => b - a);
  if (unrelated.length === 0) return null;
  return Math.min(1, unrelated[Math.floor(unrelated.length * UNRELATED_SHOWN_MAX)]! + 1e-4);
}

/**
 * Unrelated for "asked before": labelled so by hand (product), or a pair labelled unrelated that
 * shares no content word (two paraphrases of two threads about one product are related, not unrelated).
 */
export function isUnrelated(p: DecisionPair): boolean {
  return p.relation === "unrelated" && (p.set === "product" || p.shared === 0);
}

/** Where P(same | score) is read off the isotonic fit: every 0.05 from 0 to 1. */
const PROBABILITY_GRID = Array.from({ length: 21 }, (_, i) => i * 0.05);

/** P(same | score): the isotonic fit of the labels on the scores, read at PROBABILITY_GRID; none without pairs. */
export function fitProbability(pairs: readonly DecisionPair[]): [number, number][] {
  if (pairs.length === 0) return [];
  const blocks = isotonic(pairs.map((p) => ({ x: p.score, y: p.y })));
  return PROBABILITY_GRID.map((x) => {
    const below = blocks.filter((b) => b.xMin <= x);
    return [round(x), round((below[below.length - 1] ?? blocks[0]!).y)];
  });
}

/**
 * Of the pairs with a contrast in Recall's own domains (the `product` set, or every set when
 * `domains` says so), the share that are not the same question; 0.5 (no knowledge) without any.
 * The contrasts were written for short support, developer and show questions: in MQP's long
 * patient narratives a number or a negation differs in rewordings about as often as in different
 * questions, so those sets do not speak for it.
 */
export function contrastConfidence(pairs: readonly DecisionPair[], domains: (set: string) => boolean = (s) => s === "product"): number {
  const flagged = pairs.filter((p) => domains(p.set) && p.contrasts > 0);
  return flagged.length ? round(flagged.filter((p) => !p.y).length / flagged.length) : 0.5;
}

/**
 * One scale's thresholds; `relatedMin` is the fallback where no pair is labelled unrelated; a given
 * `sharedMin` is kept (the shared-words line does not depend on the model: a self-fit keeps the
 * one fitted offline on the broad labelled sets).
 */
export function fitThresholds(
  pairs: readonly DecisionPair[],
  { relatedMin, domains, sharedMin }: { relatedMin?: number; domains?: (set: string) => boolean; sharedMin?: number } = {},
): DecisionThresholds {
  const same = fitSame(pairs, { sharedMin });
  const related = fitRelatedMin(pairs) ?? relatedMin ?? same.sameMin;
  return {
    ...same,
    relatedMin: round(Math.min(same.sameMin, related)),
    probability: fitProbability(pairs.filter((p) => p.contrasts === 0)),
    contrastConfidence: contrastConfidence(pairs, domains),
  };
}

/** k-fold CV by question group: each fold is decided with thresholds fitted on the others. */
export function crossValidatedThresholds<P extends DecisionPair, T>(
  pairs: readonly P[],
  { k = 5, fit }: { k?: number; fit: (training: P[]) => T },
): { byPair: Map<P, T>; fits: T[] } {
  const byPair = new Map<P, T>();
  const fits: T[] = [];
  for (let f = 0; f < k; f++) {
    const thresholds = fit(pairs.filter((p) => foldOf(String(p.group), k) !== f));
    fits.push(thresholds);
    for (const p of pairs) if (foldOf(String(p.group), k) === f) byPair.set(p, thresholds);
  }
  return { byPair, fits };
}

export interface ActionMetrics {
  precision: number;
  recall: number;
  /** The share of all pairs acted on. */
  automatic: number;
  acted: number;
  wrong: number;
}

/** An automatic action's figures over pairs (y = 1: the same question). */
export function actionMetrics<P extends { y: number | boolean }>(pairs: readonly P[], acts: (p: P) => boolean): ActionMetrics {
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

function bySet<P extends DecisionPair>(pairs: readonly P[]): Map<string, P[]> {
  const sets = new Map<string, P[]>();
  for (const p of pairs) sets.set(p.set, [...(sets.get(p.set) ?? []), p]);
  return sets;
}

/** A labelled pair with what the logistic model reads. */
export interface ModelPair extends DecisionPair {
  x: FeatureVector;
  /** Nothing meaningful left unmatched, no loose link and no contrast: `same` is possible. */
  eligible: boolean;
}

/** The levels of P(same) actMin is chosen from. */
const P_GRID = Array.from({ length: 50 }, (_, i) => round(0.5 + i * 0.01));

/**
 * actMin: the lowest level of P(same) at which `same` (eligible and P ≥ actMin) keeps the wrong
 * actions over all the sets within wrongAllowed, read on out-of-fold probabilities; the best mean
 * recall over the sets (each counts the same however many pairs it has), the lowest level among
 * equals. 1 (nothing acts alone) when no level does. The sets are pooled for precision: a fully
 * aligned pair is rare in the long MQP and stackfaq texts, so a set of its own would allow no
 * wrong action among a handful and decide the level alone.
 */
export function fitActMin(pairs: readonly (ModelPair & { p: number })[]): number {
  const sets = [...bySet(pairs).values()].filter((of) => of.some((p) => p.y));
  let best = { recall: -1, actMin: 1 };
  for (const actMin of P_GRID) {
    const acts = (p: ModelPair & { p: number }) => p.eligible && p.p >= actMin;
    const pooled = actionMetrics(pairs, acts);
    if (pooled.wrong > wrongAllowed(pooled.acted)) continue;
    const recall = sets.reduce((sum, of) => sum + actionMetrics(of, acts).recall / sets.length, 0);
    if (recall > best.recall + 1e-12) best = { recall, actMin };
  }
  return best.recall > 0 ? best.actMin : 1;
}

/**
 * The logistic model and its actMin for a training set: the weights on every pair, actMin on the
 * probabilities of an inner k-fold (by question group), so the level is read on pairs the weights
 * did not see.
 */
export function fitDecisionModel(pairs: readonly ModelPair[], { k = 5, l2 = 0.1 } = {}): SameQuestionLogistic {
  const inner: (ModelPair & { p: number })[] = [];
  for (let f = 0; f < k; f++) {
    const held = pairs.filter((p) => foldOf(`inner:${p.group}`, k) === f);
    const model = fitLogistic(
      pairs.filter((p) => foldOf(`inner:${p.group}`, k) !== f).map(({ x, y }) => ({ x, y })),
      { l2 },
    );
    for (const p of held) inner.push({ ...p, p: probability(model, p.x) });
  }
  const model = fitLogistic(
    pairs.map(({ x, y }) => ({ x, y })),
    { l2 },
  );
  return { ...model, actMin: fitActMin(inner) };
}
