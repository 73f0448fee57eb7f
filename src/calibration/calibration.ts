/**
 * Calibrated similarity: a monotone map from one model's raw cosine to a shared scale (the
 * seeds' scale, where a paraphrase is ≥ 0.85 and an unrelated pair < 0.60), so a threshold means
 * the same thing whichever embedding model is active. Thresholds compare calibrated similarity;
 * ranking that only orders may keep raw cosine.
 */
export interface Calibration {
  /** The embedder model id this map belongs to. */
  model: string;
  /** How it was fitted (e.g. "isotonic", "identity"), and on what, for /healthz and the README. */
  method: string;
  fittedOn: string;
  /**
   * Knots of a monotone piecewise-linear map, raw cosine ascending, calibrated non-decreasing,
   * both in [-1, 1] / [0, 1]. Between knots the map is linear; outside them it is clamped.
   */
  knots: readonly (readonly [raw: number, calibrated: number])[];
}

/** Raw cosine → calibrated similarity in [0, 1]. Without a calibration: the raw cosine, clamped. */
export function calibrate(raw: number, calibration: Calibration | null): number {
  if (!calibration || calibration.knots.length === 0) return clamp01(raw);
  const knots = calibration.knots;
  const first = knots[0]!;
  const last = knots[knots.length - 1]!;
  if (raw <= first[0]) return clamp01(first[1]);
  if (raw >= last[0]) return clamp01(last[1]);
  for (let i = 1; i < knots.length; i++) {
    const [x1, y1] = knots[i]!;
    if (raw <= x1) {
      const [x0, y0] = knots[i - 1]!;
      const t = x1 === x0 ? 1 : (raw - x0) / (x1 - x0);
      return clamp01(y0 + t * (y1 - y0));
    }
  }
  return clamp01(last[1]);
}

function clamp01(x: number): number {
  return Math.min(1, Math.max(0, x));
}
