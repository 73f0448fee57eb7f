/**
 * Same question or not: the one decision behind record-time dedupe, "asked before", the show's
 * repeat block and the ticket pipeline's SKIP / ADD_VARIANT. A cosine measures *same topic*; this
 * adds what it cannot see and answers
 *
 *   same       one answer serves both: sure enough to act alone (merge, skip, block);
 *   related    same topic, maybe the same question, not sure: take the path a person can see;
 *   different  nothing to show as "asked before".
 *
 * It reads:
 * - `score`: the pair's repeat score (src/ranking/repeat.ts: raw cosine + lexical overlap, mapped
 *   per embedding model onto the seeds' scale), or, for texts the model cannot embed, the Ochiai
 *   overlap of their content words (`method: "lexical"`);
 * - contrasts (contrasts.ts): codes, opposite actions, named things, negation, asked-for slot and
 *   seed 003's question type. Any contrast rules out `same`.
 *
 * The thresholds are fitted per model on labelled pairs (`npm run decisions`, cross-validated):
 * `sameMin` is the lowest score at which the held-out precision of `same` reaches the target;
 * `relatedMin` the score below which a pair is `different`. A model without a fitted table uses
 * UNFITTED, which is sure only of near-verbatim repeats.
 */
import { piecewiseLinear } from "../calibration/calibration";
import { type Contrast, findContrasts } from "./contrasts";

export type Relation = "same" | "related" | "different";

export interface Evidence {
  /** The score the thresholds compared, and how it was measured. */
  score: number;
  method: "embedding" | "lexical";
  /** Share of content words the two texts have in common (Ochiai, 0..1). */
  sharedWords: number;
  contrasts: Contrast[];
}

export interface SameQuestionDecision {
  relation: Relation;
  /**
   * How likely the relation is right, 0..1. Without a contrast: P(same) for `same`, 1 − P(same)
   * otherwise, P(same) read off the table's map of the score (the score itself without a table).
   * With a contrast: the share of labelled pairs with a contrast in Recall's own domains that are
   * not the same question (the table's contrastConfidence).
   */
  confidence: number;
  evidence: Evidence;
  /** One line a person reads: "differs: E500 ≠ E501" or "same question, score 0.93". */
  reason: string;
}

/** One scale's thresholds and its P(same) map. */
export interface DecisionThresholds {
  /** Same: no contrast, score ≥ sameMin and shared words ≥ sharedMin. */
  sameMin: number;
  sharedMin: number;
  /** Below: different. */
  relatedMin: number;
  /** Knots [score, P(same)] of a monotone map (isotonic fit on the labelled pairs without a contrast); linear between knots, clamped outside. */
  probability: readonly (readonly [score: number, p: number])[];
  /** Of the labelled pairs in Recall's domains that show a contrast, the share that are not the same question. */
  contrastConfidence: number;
}

export interface SameQuestionModel {
  /** The embedder model id the embedding thresholds were fitted for. */
  model: string;
  fittedOn: string;
  embedding: DecisionThresholds;
  /** Texts compared by shared words (the embedder cannot embed them): model-independent. */
  lexical: DecisionThresholds;
}

/**
 * For a model with no fitted table: `same` only for near-verbatim repeats (score ≥ 0.95 on the
 * model's calibrated or raw scale and 80 % of content words shared), `different` below 0.6 (the
 * seeds' unrelated line). P(same) is not estimated: confidence says the score itself.
 */
export const UNFITTED: Omit<SameQuestionModel, "model"> = {
  fittedOn: "not fitted: near-verbatim repeats only",
  embedding: { sameMin: 0.95, sharedMin: 0.8, relatedMin: 0.6, probability: [], contrastConfidence: 0.5 },
  lexical: { sameMin: 0.9, sharedMin: 0.9, relatedMin: 0.3, probability: [], contrastConfidence: 0.5 },
};

export interface PairMeasure {
  a: string;
  b: string;
  score: number;
  method: "embedding" | "lexical";
  sharedWords: number;
}

/** The decision for a measured pair (pure: the texts, the measure, the model's table). */
export function decideSameQuestion(pair: PairMeasure, model: Omit<SameQuestionModel, "model"> | null): SameQuestionDecision {
  const thresholds = (model ?? UNFITTED)[pair.method];
  const contrasts = findContrasts(pair.a, pair.b);
  const evidence: Evidence = { score: pair.score, method: pair.method, sharedWords: pair.sharedWords, contrasts };
  const score = pair.score.toFixed(2);
  if (contrasts.length > 0) {
    const relation: Relation = pair.score >= thresholds.relatedMin || pair.sharedWords > 0 ? "related" : "different";
    return {
      relation,
      confidence: round(thresholds.contrastConfidence),
      evidence,
      reason: `differs: ${contrasts.map((c) => c.detail).join("; ")}`,
    };
  }
  const pSame = thresholds.probability.length > 0 ? piecewiseLinear(pair.score, thresholds.probability) : pair.score;
  if (pair.score >= thresholds.sameMin && pair.sharedWords >= thresholds.sharedMin)
    return { relation: "same", confidence: round(pSame), evidence, reason: `same question, score ${score}` };
  if (pair.score >= thresholds.relatedMin)
    return {
      relation: "related",
      confidence: round(1 - pSame),
      evidence,
      reason: `same topic, not sure it is the same question, score ${score}`,
    };
  return { relation: "different", confidence: round(1 - pSame), evidence, reason: `different, score ${score}` };
}

const round = (x: number) => Math.round(Math.min(1, Math.max(0, x)) * 1000) / 1000;

/** Reads a decision table (JSON written by `npm run decisions`); throws when malformed. */
export function parseSameQuestionModel(table: unknown): SameQuestionModel {
  const t = table as Partial<Record<keyof SameQuestionModel, unknown>> | null;
  if (!t || typeof t.model !== "string" || typeof t.fittedOn !== "string")
    throw new Error("decision table needs model and fittedOn strings");
  return {
    model: t.model,
    fittedOn: t.fittedOn,
    embedding: parseThresholds(t.embedding, t.model),
    lexical: parseThresholds(t.lexical, t.model),
  };
}

function parseThresholds(value: unknown, model: string): DecisionThresholds {
  const t = value as Partial<Record<keyof DecisionThresholds, unknown>> | null;
  if (!t || !unit(t.sameMin) || !unit(t.sharedMin) || !unit(t.relatedMin) || t.relatedMin > t.sameMin || !unit(t.contrastConfidence))
    throw new Error(`decision table ${model}: needs 0 ≤ relatedMin ≤ sameMin ≤ 1, sharedMin and contrastConfidence in [0, 1]`);
  return {
    sameMin: t.sameMin,
    sharedMin: t.sharedMin,
    relatedMin: t.relatedMin,
    probability: parseKnots(t.probability, model),
    contrastConfidence: t.contrastConfidence,
  };
}

const unit = (x: unknown): x is number => typeof x === "number" && x >= 0 && x <= 1;

function parseKnots(value: unknown, model: string): [number, number][] {
  if (!Array.isArray(value)) throw new Error(`decision table ${model}: probability must be a list of knots`);
  const knots: [number, number][] = [];
  for (const knot of value as unknown[]) {
    if (!Array.isArray(knot) || knot.length !== 2 || !knot.every(unit))
      throw new Error(`decision table ${model}: a knot is not [score, p] in [0, 1]`);
    const [score, p] = knot as [number, number];
    const prev = knots[knots.length - 1];
    if (prev && (score <= prev[0] || p < prev[1])) throw new Error(`decision table ${model}: probability knots are not monotone`);
    knots.push([score, p]);
  }
  return knots;
}
