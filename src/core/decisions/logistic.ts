/**
 * P(same question) as a logistic model over what the alignment and the model's score say of a
 * pair. Pure: the features of a pair, the probability, and the fit (Newton's method with a small
 * L2 penalty, so a feature the labels never vary stays near 0 instead of running off).
 */
import { sigmoid } from "../base/logistic-terms";
import type { Alignment } from "./align";
import type { Contrast, ContrastKind } from "./contrasts";

/**
 * The features, each documented by what it counts:
 * - `score`: the pair's score (the calibrated repeat score, or shared words for lexical pairs);
 * - `hardContent`: content words and numbers left unmatched, both sides;
 * - `hardSmall`: answer-changing small words left unmatched (before, last, most, not, only, how long …);
 * - `soft`: small words an unmarked side takes for granted (my, this, should, a particle);
 * - `asides`: units left in a sentence that asks nothing ("Hi there, hope you're well.");
 * - `weakLinks`: links by spelling, synonym or stem rather than the same lemma;
 * - `looseLinks`: links by a looser WordNet relation (delete / remove, change / update);
 * - `coverage`: linked units over linked + unmatched hard units (1 when nothing is left);
 * - `frameDiffers`: 1 when the sides put the question differently ("how do I" / "can I");
 * - `namedContrast`: 1 when a table names a difference (a code, the opposite action, a named thing,
 *   words that change places); `smallContrast`: 1 when a small word that changes the answer is left
 *   (negation, the slot asked for, time, period, degree …); `replacedWord`: 1 when one word replaced
 *   another in a matched frame;
 * - `aligned`: 1 when nothing meaningful is left unmatched and nothing differs (`same` is possible),
 *   and `alignedScore`, the score of such a pair (0 otherwise): a fully aligned pair is a class
 *   of its own, far more often the same question than its score alone says.
 */
export const FEATURES = [
  "score",
  "hardContent",
  "hardSmall",
  "soft",
  "asides",
  "weakLinks",
  "looseLinks",
  "coverage",
  "frameDiffers",
  "namedContrast",
  "smallContrast",
  "replacedWord",
  "aligned",
  "alignedScore",
] as const;
export type Feature = (typeof FEATURES)[number];
export type FeatureVector = Record<Feature, number>;

export interface LogisticModel {
  /** One weight per FEATURES entry, in that order. */
  weights: readonly number[];
  bias: number;
}

export function pairFeatures(score: number, alignment: Alignment, contrasts: readonly Contrast[]): FeatureVector {
  const has = (kinds: readonly ContrastKind[]) => (contrasts.some((c) => kinds.includes(c.kind)) ? 1 : 0);
  const contrast = contrasts.length > 0;
  const hard = [...alignment.onlyA, ...alignment.onlyB];
  const hardSmall = hard.filter((u) => u.kind === "small").length;
  const hardContent = hard.length - hardSmall;
  const linked = alignment.links.length;
  return {
    score,
    hardContent,
    hardSmall,
    soft: [...alignment.softA, ...alignment.softB].filter((u) => !u.aside).length,
    asides: [...alignment.softA, ...alignment.softB].filter((u) => u.aside).length,
    weakLinks: alignment.links.filter((l) => l.kind !== "same" && l.kind !== "related").length,
    looseLinks: alignment.links.filter((l) => l.kind === "related").length,
    coverage: linked + hard.length === 0 ? 1 : linked / (linked + hard.length),
    frameDiffers: alignment.frameDiffers ? 1 : 0,
    namedContrast: has(["code", "opposite_action", "named_thing"]) || (alignment.swapped ? 1 : 0),
    smallContrast: has(["negation", "asked_for", "small_word"]),
    replacedWord: contrasts.some((c) => c.kind === "swapped_word") && !alignment.swapped ? 1 : 0,
    aligned: hard.length === 0 && !contrast ? 1 : 0,
    alignedScore: hard.length === 0 && !contrast ? score : 0,
  };
}

export function probability(model: LogisticModel, x: FeatureVector): number {
  let z = model.bias;
  FEATURES.forEach((f, i) => (z += (model.weights[i] ?? 0) * x[f]));
  return sigmoid(z);
}

/**
 * Fits weights and bias on labelled vectors (y: 1 the same question, w: the row's weight, 1 by
 * default), minimising the weighted log loss + l2·|w|².
 */
export function fitLogistic(
  rows: readonly { x: FeatureVector; y: number; w?: number }[],
  options: { l2?: number; iterations?: number } = {},
): LogisticModel {
  return fitLogisticVectors(
    rows.map((r) => ({ ...r, x: FEATURES.map((f) => r.x[f]) })),
    options,
  );
}

/**
 * Logistic regression by Newton's method on plain vectors (any feature list: the information-need
 * model fits with it too): weights and bias minimising the weighted log loss + l2·|w|².
 */
export function fitLogisticVectors(
  rows: readonly { x: readonly number[]; y: number; w?: number }[],
  { l2 = 0.1, iterations = 30 } = {},
): LogisticModel {
  const d = (rows[0]?.x.length ?? 0) + 1;
  const X = rows.map((r) => [...r.x, 1]);
  let w = new Array<number>(d).fill(0);
  for (let it = 0; it < iterations; it++) {
    const grad = new Array<number>(d).fill(0);
    const hess = Array.from({ length: d }, () => new Array<number>(d).fill(0));
    X.forEach((xi, n) => {
      const p = sigmoid(xi.reduce((s, v, k) => s + v * w[k]!, 0));
      const weight = rows[n]!.w ?? 1;
      const r = weight * p * (1 - p);
      for (let j = 0; j < d; j++) {
        grad[j]! += weight * (p - rows[n]!.y) * xi[j]!;
        for (let k = 0; k < d; k++) hess[j]![k]! += r * xi[j]! * xi[k]!;
      }
    });
    // The bias is not penalised.
    for (let j = 0; j < d - 1; j++) {
      grad[j]! += 2 * l2 * w[j]!;
      hess[j]![j]! += 2 * l2;
    }
    const step = solve(hess, grad);
    if (!step) break;
    w = w.map((v, j) => v - step[j]!);
    if (Math.max(...step.map(Math.abs)) < 1e-8) break;
  }
  return { weights: w.slice(0, -1).map(round6), bias: round6(w[d - 1]!) };
}

const round6 = (x: number) => Math.round(x * 1e6) / 1e6;

/** Solves A·x = b by Gaussian elimination with partial pivoting; null when A is singular. */
function solve(A: number[][], b: number[]): number[] | null {
  const n = b.length;
  const m = A.map((row, i) => [...row, b[i]!]);
  for (let c = 0; c < n; c++) {
    let pivot = c;
    for (let r = c + 1; r < n; r++) if (Math.abs(m[r]![c]!) > Math.abs(m[pivot]![c]!)) pivot = r;
    if (Math.abs(m[pivot]![c]!) < 1e-12) return null;
    [m[c], m[pivot]] = [m[pivot]!, m[c]!];
    for (let r = 0; r < n; r++) {
      if (r === c) continue;
      const f = m[r]![c]! / m[c]![c]!;
      for (let k = c; k <= n; k++) m[r]![k]! -= f * m[c]![k]!;
    }
  }
  return m.map((row, i) => row[n]! / row[i]!);
}
