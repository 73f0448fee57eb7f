/**
 * The show's repeat decision: is a candidate the same question as one already asked, or only a
 * neighbour on the same topic? Calibrated cosine alone cannot tell: on the local model a
 * different question about the same subject often has a higher cosine than a reworded repeat
 * (docs/design/ranking-and-decisions.md, "Show memory"). So the show adds lexical evidence, the share of content terms two
 * questions have in common (Ochiai of stemmed terms, lexicalEvidence below), and maps the
 * combined evidence
 *
 *     evidence = rawCosine + lexicalWeight × lexicalEvidence
 *
 * onto the seeds' scale (batch duplicate ≥ 0.85, block > 0.80, penalty 0.70–0.80, boost < 0.60)
 * with a monotone piecewise-linear map fitted per embedding model on labelled question pairs with
 * hard negatives (`npm run calibrate -- --repeat`, scripts/repeat-fit.mjs). The fit and its
 * cross-validated figures live in src/core/scale/tables/<model>.repeat.json.
 */
import { type Calibration, calibrate } from "../calibration/calibration";

/**
 * Latin content terms longer than this are cut to it before the overlap is counted, a crude stem
 * that lets word forms meet ("conscious" / "consciousness", "system" / "systems"); CJK bigrams and
 * short words pass unchanged. 4 had the best cross-validated AUC on the English pairs of 4, 5, 6, 7
 * and no cut (pooled CV AUC 0.825 vs 0.815, 0.813, 0.806, 0.800; chosen on all pairs, not nested).
 */
export const STEM_LENGTH = 4;

/** The terms the repeat evidence compares: lexicalTerms(text), each cut to STEM_LENGTH. */
export function repeatTerms(terms: readonly string[]): string[] {
  return [...new Set(terms.map((t) => (/^[a-z]/.test(t) && t.length > STEM_LENGTH ? t.slice(0, STEM_LENGTH) : t)))];
}

// The stemmed set of each terms array, computed once: ranking compares every candidate with every
// question of the window, and each text's terms array is the same object in all of its pairs.
const stemmed = new WeakMap<readonly string[], ReadonlySet<string>>();

function stemSet(terms: readonly string[]): ReadonlySet<string> {
  let set = stemmed.get(terms);
  if (!set) {
    set = new Set(repeatTerms(terms));
    stemmed.set(terms, set);
  }
  return set;
}

/** The lexical half of the evidence: Ochiai overlap of the stemmed content terms, 0..1. */
export function lexicalEvidence(a: readonly string[], b: readonly string[]): number {
  const setA = stemSet(a);
  const setB = stemSet(b);
  if (setA.size === 0 || setB.size === 0) return 0;
  let shared = 0;
  for (const term of setA) if (setB.has(term)) shared++;
  return shared / Math.sqrt(setA.size * setB.size);
}

/** The largest lexical weight a table may carry (the fit searches 0..2; scripts/repeat-fit.mjs). */
export const MAX_LEXICAL_WEIGHT = 2;

export interface RepeatModel {
  /** The embedder model id the map was fitted for. */
  model: string;
  method: string;
  fittedOn: string;
  /** How much one unit of lexical evidence (0..1) counts against one unit of raw cosine, 0..MAX_LEXICAL_WEIGHT. */
  lexicalWeight: number;
  /** Knots of the monotone map evidence → repeat similarity (same contract as Calibration.knots). */
  knots: readonly (readonly [evidence: number, similarity: number])[];
}

/**
 * Repeat similarity in [0, 1] from a pair's raw cosine and lexical similarity. Without a fitted
 * model for the active embedder: the global calibration of the cosine (the pre-fit behaviour).
 */
export function repeatSimilarity(rawCosine: number, lexical: number, model: RepeatModel | null, calibration: Calibration | null): number {
  if (!model) return calibrate(rawCosine, calibration);
  const evidence = rawCosine + model.lexicalWeight * lexical;
  return calibrate(evidence, model); // a RepeatModel is a Calibration whose input is the evidence
}

/** Reads a repeat table (JSON written by `npm run calibrate -- --repeat`); throws when malformed. */
export function parseRepeatModel(table: unknown): RepeatModel {
  const t = table as Partial<Record<keyof RepeatModel, unknown>> | null;
  if (!t || typeof t.model !== "string" || typeof t.method !== "string" || typeof t.fittedOn !== "string") {
    throw new Error("repeat table needs model, method and fittedOn strings");
  }
  if (typeof t.lexicalWeight !== "number" || !(t.lexicalWeight >= 0 && t.lexicalWeight <= MAX_LEXICAL_WEIGHT))
    throw new Error(`repeat table ${t.model}: lexicalWeight must be in [0, ${MAX_LEXICAL_WEIGHT}]`);
  if (!Array.isArray(t.knots) || t.knots.length < 2) throw new Error(`repeat table ${t.model}: needs at least two knots`);
  const knots: [number, number][] = [];
  for (const knot of t.knots as unknown[]) {
    if (!Array.isArray(knot) || knot.length !== 2 || !knot.every((v) => typeof v === "number" && Number.isFinite(v))) {
      throw new Error(`repeat table ${t.model}: a knot is not [evidence, similarity]`);
    }
    const [x, y] = knot as [number, number];
    const prev = knots[knots.length - 1];
    if (x < -1 || x > 1 + t.lexicalWeight || y < 0 || y > 1) throw new Error(`repeat table ${t.model}: knot out of range`);
    if (prev && (x <= prev[0] || y < prev[1])) throw new Error(`repeat table ${t.model}: knots are not monotone`);
    knots.push([x, y]);
  }
  return { model: t.model, method: t.method, fittedOn: t.fittedOn, lexicalWeight: t.lexicalWeight, knots };
}
