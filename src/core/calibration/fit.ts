/**
 * Pure fitting math of the calibration (no I/O, no model): isotonic regression
 * (pool-adjacent-violators), the anchor fit that turns labelled raw cosines into the knots of a
 * monotone piecewise-linear map, band agreement, AUC and a grouped bootstrap. One implementation
 * serves `npm run calibrate` on a laptop (scripts/calibration-fit.mjs re-exports it) and the fit a
 * deployed Worker runs on its own pairs (src/features/self-fit/).
 *
 * The calibrated scale is the seeds' scale. A labelled pair "agrees" when its similarity falls in
 * its label's band (bands.ts: the show-memory lines of seed 004, which the other seeds' lines sit in).
 */
import { type Band, bandOf, PARAPHRASE_MIN, RELATED_MIN } from "./bands";
import { calibrate } from "./calibration";

export const LABELS = ["paraphrase", "related", "unrelated"] as const satisfies readonly Band[];
/** Where a typical (median) unrelated / paraphrase pair lands on the calibrated scale. */
export const UNRELATED_MEDIAN_TARGET = 0.3;
export const PARAPHRASE_MEDIAN_TARGET = 0.9;

export type Knot = [x: number, y: number];

export interface IsotonicBlock {
  /** The block's weighted mean input. */
  x: number;
  /** Its fitted value (non-decreasing block to block). */
  y: number;
  w: number;
  xMin: number;
  xMax: number;
}

/** Weighted isotonic (non-decreasing) regression by pool-adjacent-violators; blocks x ascending. */
export function isotonic(points: readonly { x: number; y: number; w?: number }[]): IsotonicBlock[] {
  const sorted = [...points].sort((p, q) => p.x - q.x);
  const stack: { sx: number; sy: number; w: number; xMin: number; xMax: number }[] = [];
  for (const p of sorted) {
    const w = p.w ?? 1;
    stack.push({ sx: p.x * w, sy: p.y * w, w, xMin: p.x, xMax: p.x });
    while (stack.length > 1) {
      const top = stack[stack.length - 1]!;
      const below = stack[stack.length - 2]!;
      if (below.sy / below.w <= top.sy / top.w) break;
      stack.splice(stack.length - 2, 2, {
        sx: below.sx + top.sx,
        sy: below.sy + top.sy,
        w: below.w + top.w,
        xMin: below.xMin,
        xMax: top.xMax,
      });
    }
  }
  return stack.map((b) => ({ x: b.sx / b.w, y: b.sy / b.w, w: b.w, xMin: b.xMin, xMax: b.xMax }));
}

/**
 * The score where P(upper class | score) crosses 0.5, from an isotonic fit of the class indicator
 * with balanced weights (each class weighs 1 in total, so the larger set does not move the line).
 * Linear between block centres. Null when a class is empty.
 */
export function boundary(lowerRaws: readonly number[], upperRaws: readonly number[]): number | null {
  if (lowerRaws.length === 0 || upperRaws.length === 0) return null;
  const blocks = isotonic([
    ...lowerRaws.map((x) => ({ x, y: 0, w: 1 / lowerRaws.length })),
    ...upperRaws.map((x) => ({ x, y: 1, w: 1 / upperRaws.length })),
  ]);
  if (blocks[0]!.y >= 0.5) return blocks[0]!.xMin;
  for (let i = 1; i < blocks.length; i++) {
    const b0 = blocks[i - 1]!;
    const b1 = blocks[i]!;
    if (b1.y >= 0.5) {
      if (b1.y === 0.5) return b1.x;
      const t = (0.5 - b0.y) / (b1.y - b0.y);
      return b0.x + t * (b1.x - b0.x);
    }
  }
  return blocks[blocks.length - 1]!.xMax;
}

export function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const s = [...values].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

export const round = (x: number) => Math.round(x * 1e4) / 1e4;

export interface LabelledScore {
  raw: number;
  label: Band;
  /** A similarity a seed states for this exact pair (e.g. seed 004's 0.87 and 0.82). */
  reference?: number;
}

export interface KnotFit {
  knots: Knot[];
  boundaries: { related: number; paraphrase: number };
  dropped: Knot[];
}

/**
 * Fits the map from labelled raw cosines.
 * Method ("isotonic-anchors"): two balanced isotonic regressions between adjacent labels give the
 * raw cosine where a pair becomes more likely related than unrelated (→ calibrated 0.60) and more
 * likely paraphrase than related (→ 0.80); the median unrelated pair goes to 0.30 and the median
 * paraphrase to 0.90; the ends of the range go to 0 and 1. A pair that carries a `reference`
 * similarity is an anchor too, and takes precedence: a data anchor that would break monotonicity
 * against a reference is dropped. Knots are joined linearly, so the map is monotone, continuous and
 * bounded by construction.
 * `references: false` fits on the labels alone; `range` is the score's extent (raw cosine [−1, 1];
 * a combined evidence score is wider).
 */
export function fitKnots(
  pairs: readonly LabelledScore[],
  { references = true, range = [-1, 1] as [number, number] }: { references?: boolean; range?: [number, number] } = {},
): KnotFit {
  const by = (label: Band) => pairs.filter((p) => p.label === label).map((p) => p.raw);
  const para = by("paraphrase");
  const rel = by("related");
  const unrel = by("unrelated");
  if (para.length === 0 || unrel.length === 0) throw new Error("need paraphrase and unrelated pairs to fit");
  // Without related pairs the two lines collapse onto the paraphrase/unrelated boundary.
  let t60 = (rel.length ? boundary(unrel, rel) : boundary(unrel, para))!;
  let t80 = rel.length ? boundary(rel, para)! : t60;
  if (t60 >= t80 - 0.01) {
    const mid = (t60 + t80) / 2;
    t60 = mid - 0.005;
    t80 = mid + 0.005;
  }
  // Anchors in order of precedence; each is kept only if it stays strictly monotone (raw and
  // calibrated both increasing) against every anchor kept before it.
  const anchors: Knot[] = [
    [range[0], 0],
    [range[1], 1],
    ...(references ? pairs.filter((p) => typeof p.reference === "number").map((p): Knot => [p.raw, p.reference!]) : []),
    [t60, RELATED_MIN],
    [t80, PARAPHRASE_MIN],
    [median(unrel)!, UNRELATED_MEDIAN_TARGET],
    [median(para)!, PARAPHRASE_MEDIAN_TARGET],
  ];
  const kept: Knot[] = [];
  const dropped: Knot[] = [];
  for (const [x, y] of anchors) {
    const fits = kept.every(([kx, ky]) => (kx < x - 1e-4 && ky < y) || (kx > x + 1e-4 && ky > y));
    (fits ? kept : dropped).push([round(x), y]);
  }
  const knots = kept.sort((p, q) => p[0] - q[0]);
  return { knots, boundaries: { related: round(t60), paraphrase: round(t80) }, dropped };
}

/** The piecewise-linear map through knots, clamped to [0, 1] (calibrate() of calibration.ts). */
export function applyKnots(raw: number, knots: readonly (readonly [number, number])[] | null): number {
  return calibrate(raw, knots && knots.length ? { model: "", method: "", fittedOn: "", knots } : null);
}

export interface Agreement {
  n: number;
  overall: number;
  /** The mean over the labels present: a label with many pairs does not drown the others. */
  macro: number;
  perLabel: Partial<Record<Band, { n: number; agree: number }>>;
}

/** Band agreement of `score(pair)` with the labels: overall, per label and macro. */
export function agreement<P extends { label: Band }>(pairs: readonly P[], score: (p: P) => number): Agreement {
  const perLabel: Agreement["perLabel"] = {};
  let hits = 0;
  for (const label of LABELS) {
    const of = pairs.filter((p) => p.label === label);
    if (of.length === 0) continue;
    const h = of.filter((p) => bandOf(score(p)) === label).length;
    hits += h;
    perLabel[label] = { n: of.length, agree: round(h / of.length) };
  }
  const present = Object.values(perLabel);
  return {
    n: pairs.length,
    overall: pairs.length ? round(hits / pairs.length) : 0,
    macro: present.length ? round(present.reduce((s, v) => s + v.agree, 0) / present.length) : 0,
    perLabel,
  };
}

/** Area under the ROC curve of score() for y = 1 against the rest (ties count half); 0.5 without both classes. */
export function auc<P extends { y: number | boolean }>(pairs: readonly P[], score: (p: P) => number): number {
  const rows = pairs.map((p) => [score(p), p.y ? 1 : 0] as const).sort((a, b) => a[0] - b[0]);
  let rankSum = 0;
  let positives = 0;
  for (let i = 0; i < rows.length; ) {
    let j = i;
    while (j < rows.length && rows[j]![0] === rows[i]![0]) j++;
    const midRank = (i + 1 + j) / 2;
    for (let k = i; k < j; k++) {
      if (!rows[k]![1]) continue;
      rankSum += midRank;
      positives++;
    }
    i = j;
  }
  const negatives = rows.length - positives;
  return positives && negatives ? (rankSum - (positives * (positives + 1)) / 2) / (positives * negatives) : 0.5;
}

/** A stable 32-bit hash (FNV-1a) for deterministic folds and sampling. */
export function hash32(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

/** A deterministic PRNG (mulberry32) in [0, 1). */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * 95 % percentile bootstrap interval of a statistic over pairs, resampling whole groups (pairs
 * sharing a question) with a seeded PRNG.
 */
export function bootstrap<P>(
  pairs: readonly P[],
  statistic: (sample: P[]) => number,
  { samples = 500, seed = 20251019, group }: { samples?: number; seed?: number; group: (p: P) => string },
): [number, number] {
  const byGroup = new Map<string, P[]>();
  for (const p of pairs) byGroup.set(group(p), [...(byGroup.get(group(p)) ?? []), p]);
  const groups = [...byGroup.values()];
  const random = rng(seed);
  const values: number[] = [];
  for (let s = 0; s < samples; s++) {
    const sample: P[] = [];
    for (let i = 0; i < groups.length; i++) sample.push(...groups[Math.floor(random() * groups.length)]!);
    values.push(statistic(sample));
  }
  values.sort((a, b) => a - b);
  return [values[Math.floor(0.025 * (samples - 1))]!, values[Math.ceil(0.975 * (samples - 1))]!];
}

/** The fold (0..k−1) of a group: the same group always lands in the same fold. */
export function foldOf(group: string, k: number): number {
  return hash32(group) % k;
}
