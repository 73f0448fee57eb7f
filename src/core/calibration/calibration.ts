/**
 * Calibrated similarity: a monotone map from one model's raw cosine to a shared scale (the
 * seeds' scale, where a paraphrase is ≥ 0.85 and an unrelated pair < 0.60), so a threshold means
 * the same thing whichever embedding model is active. Thresholds compare calibrated similarity;
 * ranking that only orders may keep raw cosine.
 */
export interface Calibration {
  /** The embedder model id this map belongs to. */
  model: string;
  /** How it was fitted (e.g. "isotonic", "identity"), and on what, for /healthz and the docs. */
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
  return clamp01(piecewiseLinear(raw, calibration.knots));
}

/** The piecewise-linear function through knots (x ascending), constant outside them. */
export function piecewiseLinear(x: number, knots: readonly (readonly [number, number])[]): number {
  const first = knots[0]!;
  const last = knots[knots.length - 1]!;
  if (x <= first[0]) return first[1];
  if (x >= last[0]) return last[1];
  for (let i = 1; i < knots.length; i++) {
    const [x1, y1] = knots[i]!;
    if (x <= x1) {
      const [x0, y0] = knots[i - 1]!;
      return x1 === x0 ? y1 : y0 + ((x - x0) / (x1 - x0)) * (y1 - y0);
    }
  }
  return last[1];
}

/** How a response reports a similarity: the calibrated value, with the raw cosine alongside. */
export interface ReportedSimilarity {
  /** Calibrated similarity in [0, 1]: what thresholds compare. */
  similarity: number;
  /** The active model's raw cosine, for ranking and debugging. */
  rawCosine: number;
}

export function reportSimilarity(rawCosine: number, calibration: Calibration | null): ReportedSimilarity {
  return { similarity: calibrate(rawCosine, calibration), rawCosine };
}

function clamp01(x: number): number {
  return Math.min(1, Math.max(0, x));
}

/**
 * Reads a calibration table (JSON written by `npm run calibrate`) and checks what calibrate()
 * relies on: knots with raw strictly ascending in [-1, 1] and calibrated non-decreasing in [0, 1].
 * Throws on a malformed table, so a bad table fails at load (and in the tests), not silently.
 */
export function parseCalibration(table: unknown): Calibration {
  const t = table as Partial<Record<keyof Calibration, unknown>> | null;
  if (!t || typeof t.model !== "string" || typeof t.method !== "string" || typeof t.fittedOn !== "string") {
    throw new Error("calibration table needs model, method and fittedOn strings");
  }
  if (!Array.isArray(t.knots) || t.knots.length < 2) throw new Error(`calibration ${t.model}: needs at least two knots`);
  const knots: [number, number][] = [];
  for (const knot of t.knots as unknown[]) {
    if (!Array.isArray(knot) || knot.length !== 2 || !knot.every((v) => typeof v === "number" && Number.isFinite(v))) {
      throw new Error(`calibration ${t.model}: a knot is not [raw, calibrated]`);
    }
    const [raw, calibrated] = knot as [number, number];
    const prev = knots[knots.length - 1];
    if (raw < -1 || raw > 1 || calibrated < 0 || calibrated > 1) throw new Error(`calibration ${t.model}: knot out of range`);
    if (prev && (raw <= prev[0] || calibrated < prev[1])) throw new Error(`calibration ${t.model}: knots are not monotone`);
    knots.push([raw, calibrated]);
  }
  return { model: t.model, method: t.method, fittedOn: t.fittedOn, knots };
}
