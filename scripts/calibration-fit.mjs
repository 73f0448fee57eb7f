// Pure fitting math for `npm run calibrate` (no I/O, no model): bands, isotonic regression
// (pool-adjacent-violators), the anchor fit that turns labeled raw cosines into the knots of a
// monotone piecewise-linear map, and band agreement. Unit-tested in test/unit/calibration.test.ts.
//
// The calibrated scale is the seeds' scale. A labeled pair "agrees" when its similarity falls in
// its label's band (the show-memory thresholds of seed 004, which the other seeds' lines sit in):
//   paraphrase  similarity ≥ 0.80   (show memory blocks > 0.80; the seed's paraphrases are 0.82–0.87)
//   related     0.60 ≤ similarity < 0.80   (penalty 0.70–0.80, ticket judge 0.70–0.85)
//   unrelated   similarity < 0.60   (novelty boost < 0.60)

export const LABELS = /** @type {const} */ (["paraphrase", "related", "unrelated"]);
export const PARAPHRASE_MIN = 0.8;
export const RELATED_MIN = 0.6;
/** Where a typical (median) unrelated / paraphrase pair lands on the calibrated scale. */
export const UNRELATED_MEDIAN_TARGET = 0.3;
export const PARAPHRASE_MEDIAN_TARGET = 0.9;

/** The label whose band holds this similarity. */
export function bandOf(similarity) {
  if (similarity >= PARAPHRASE_MIN) return "paraphrase";
  if (similarity >= RELATED_MIN) return "related";
  return "unrelated";
}

/**
 * Weighted isotonic (non-decreasing) regression by pool-adjacent-violators.
 * @param {{x: number, y: number, w?: number}[]} points
 * @returns {{x: number, y: number, w: number, xMin: number, xMax: number}[]} blocks, x ascending;
 *   `x` is the block's weighted mean input, `y` its fitted value (non-decreasing block to block).
 */
export function isotonic(points) {
  const sorted = [...points].sort((p, q) => p.x - q.x);
  /** @type {{sx: number, sy: number, w: number, xMin: number, xMax: number}[]} */
  const stack = [];
  for (const p of sorted) {
    const w = p.w ?? 1;
    stack.push({ sx: p.x * w, sy: p.y * w, w, xMin: p.x, xMax: p.x });
    while (stack.length > 1) {
      const top = stack[stack.length - 1];
      const below = stack[stack.length - 2];
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
 * The raw cosine where P(upper class | raw) crosses 0.5, from an isotonic fit of the class
 * indicator with balanced weights (each class weighs 1 in total, so the larger set does not move
 * the line). Linear between block centres. Null when a class is empty.
 */
export function boundary(lowerRaws, upperRaws) {
  if (lowerRaws.length === 0 || upperRaws.length === 0) return null;
  const points = [
    ...lowerRaws.map((x) => ({ x, y: 0, w: 1 / lowerRaws.length })),
    ...upperRaws.map((x) => ({ x, y: 1, w: 1 / upperRaws.length })),
  ];
  const blocks = isotonic(points);
  if (blocks[0].y >= 0.5) return blocks[0].xMin;
  for (let i = 1; i < blocks.length; i++) {
    const b0 = blocks[i - 1];
    const b1 = blocks[i];
    if (b1.y >= 0.5) {
      if (b1.y === 0.5) return b1.x;
      const t = (0.5 - b0.y) / (b1.y - b0.y);
      return b0.x + t * (b1.x - b0.x);
    }
  }
  return blocks[blocks.length - 1].xMax;
}

export function median(values) {
  if (values.length === 0) return null;
  const s = [...values].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

const round = (x) => Math.round(x * 1e4) / 1e4;

/**
 * Fits the map from labeled raw cosines.
 * Method ("isotonic-anchors"): two balanced isotonic regressions between adjacent labels give the
 * raw cosine where a pair becomes more likely related than unrelated (→ calibrated 0.60) and more
 * likely paraphrase than related (→ 0.80); the median unrelated pair goes to 0.30 and the median
 * paraphrase to 0.90; raw −1 → 0 and raw 1 → 1. A pair that carries a `reference` similarity (a
 * value a seed states for that exact pair, e.g. seed 004's consciousness questions, 0.87 and 0.82)
 * is an anchor too, and takes precedence: a data anchor that would break monotonicity against a
 * reference is dropped. Knots are joined linearly, so the map is monotone, continuous and bounded
 * by construction.
 * @param {{raw: number, label: "paraphrase"|"related"|"unrelated", reference?: number}[]} pairs
 * @param {{references?: boolean, range?: [number, number]}} [options] references: false fits on the
 *   labels alone; range: the score's extent (raw cosine [−1, 1]; a combined evidence score is wider)
 */
export function fitKnots(pairs, { references = true, range = [-1, 1] } = {}) {
  const by = (label) => pairs.filter((p) => p.label === label).map((p) => p.raw);
  const para = by("paraphrase");
  const rel = by("related");
  const unrel = by("unrelated");
  if (para.length === 0 || unrel.length === 0) throw new Error("need paraphrase and unrelated pairs to fit");
  // Without related pairs the two lines collapse onto the paraphrase/unrelated boundary.
  let t60 = rel.length ? boundary(unrel, rel) : boundary(unrel, para);
  let t80 = rel.length ? boundary(rel, para) : t60;
  if (t60 >= t80 - 0.01) {
    const mid = (t60 + t80) / 2;
    t60 = mid - 0.005;
    t80 = mid + 0.005;
  }
  // Anchors in order of precedence; each is kept only if it stays strictly monotone (raw and
  // calibrated both increasing) against every anchor kept before it.
  const anchors = [
    [range[0], 0],
    [range[1], 1],
    ...(references ? pairs.filter((p) => typeof p.reference === "number").map((p) => [p.raw, p.reference]) : []),
    [t60, RELATED_MIN],
    [t80, PARAPHRASE_MIN],
    [median(unrel), UNRELATED_MEDIAN_TARGET],
    [median(para), PARAPHRASE_MEDIAN_TARGET],
  ];
  const kept = [];
  const dropped = [];
  for (const [x, y] of anchors) {
    const fits = kept.every(([kx, ky]) => (kx < x - 1e-4 && ky < y) || (kx > x + 1e-4 && ky > y));
    (fits ? kept : dropped).push([round(x), y]);
  }
  const knots = kept.sort((p, q) => p[0] - q[0]);
  return { knots, boundaries: { related: round(t60), paraphrase: round(t80) }, dropped };
}

/** The piecewise-linear map (same contract as calibrate() in src/calibration/calibration.ts). */
export function applyKnots(raw, knots) {
  if (!knots || knots.length === 0) return Math.min(1, Math.max(0, raw));
  const clamp = (x) => Math.min(1, Math.max(0, x));
  if (raw <= knots[0][0]) return clamp(knots[0][1]);
  for (let i = 1; i < knots.length; i++) {
    const [x1, y1] = knots[i];
    if (raw <= x1) {
      const [x0, y0] = knots[i - 1];
      const t = x1 === x0 ? 1 : (raw - x0) / (x1 - x0);
      return clamp(y0 + t * (y1 - y0));
    }
  }
  return clamp(knots[knots.length - 1][1]);
}

/**
 * Band agreement of `score(pair)` with the labels: overall share of pairs in their label's band,
 * per label, and the macro mean over the labels present (a label with many pairs does not drown
 * the others).
 */
export function agreement(pairs, score) {
  const perLabel = {};
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

/** A stable 32-bit hash (FNV-1a) for deterministic folds and sampling. */
export function hash32(text) {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

/** A deterministic PRNG (mulberry32) in [0, 1). */
export function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** CJK ideographs, kana or hangul: text an English-only model cannot embed meaningfully. */
export function hasCjk(text) {
  return /[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]/u.test(text);
}

/** Cosine of two plain number arrays (0 when either is all zeros). */
export function cosine(a, b) {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i] * b[i];
    na += a[i] * a[i];
    nb += b[i] * b[i];
  }
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}
