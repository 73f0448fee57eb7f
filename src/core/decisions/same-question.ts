/**
 * Same question or not: the one decision behind record-time dedupe, "asked before", the show's
 * repeat block and the ticket pipeline's SKIP / ADD_VARIANT. A cosine measures *same topic*; this
 * reads what each side says that the other does not, and answers
 *
 *   same       one answer serves both: sure enough to act alone (merge, skip, block);
 *   related    same topic, maybe the same question, not sure: take the path a person can see;
 *   different  nothing to show as "asked before".
 *
 * It reads:
 * - the alignment (align.ts): every unit of meaning of one side matched on the other, by lemma,
 *   spelling, synonym or stem; what is left unmatched is the evidence a person reads ("only in b:
 *   manager", "differs: last ≠ this"), and contrasts.ts names the leftovers it has a name for;
 * - `score`: the pair's repeat score (src/core/ranking/repeat.ts: raw cosine + lexical overlap, mapped
 *   per embedding model onto the seeds' scale), or, for texts the model cannot embed, the Ochiai
 *   overlap of their content words (`method: "lexical"`);
 * - a logistic model over both (logistic.ts), fitted per embedding model on labelled pairs with
 *   grouped cross-validation (`npm run decisions`): P(same).
 *
 * `same` needs all of: nothing meaningful left unmatched on either side, each word matched by
 * more than a loose WordNet link (align.ts), no contrast, and P(same) at or above `actMin`, the
 * lowest level at which the held-out precision of `same` reached the target. `related` is a score
 * at or above `relatedMin`; below it, `different`. A table without a logistic model (an embedding
 * model nobody fitted) uses its score lines instead, and UNFITTED is sure only of near-verbatim
 * repeats.
 */
import { piecewiseLinear } from "../calibration/calibration";
import { type Alignment, alignQuestions } from "./align";
import { type Contrast, findContrasts } from "./contrasts";
import { FEATURES, type LogisticModel, pairFeatures, probability } from "./logistic";

export type Relation = "same" | "related" | "different";

export interface Evidence {
  /** The score the thresholds compared, and how it was measured. */
  score: number;
  method: "embedding" | "lexical";
  /** Share of content words the two texts have in common (Ochiai, 0..1). */
  sharedWords: number;
  contrasts: Contrast[];
  /** What each side says that the other does not match (the alignment's hard leftovers, as written). */
  onlyA: string[];
  onlyB: string[];
  /** P(same question) from the fitted model; null when the table has none. */
  pSame: number | null;
}

export interface SameQuestionDecision {
  relation: Relation;
  /**
   * How likely the relation is right, 0..1: P(same) for `same`, 1 − P(same) otherwise, from the
   * table's logistic model (or, without one, its map of the score; the score itself without a map).
   */
  confidence: number;
  evidence: Evidence;
  /** One line a person reads: "differs: E500 ≠ E501", "only in b: manager" or "same question: every word matched". */
  reason: string;
}

/** The logistic model of a table and the level of P(same) at which `same` acts alone. */
export interface SameQuestionLogistic extends LogisticModel {
  actMin: number;
}

/** One scale's thresholds and its P(same) model. */
export interface DecisionThresholds {
  /** Without a logistic model: same needs score ≥ sameMin and shared words ≥ sharedMin (and nothing left unmatched). */
  sameMin: number;
  sharedMin: number;
  /** Below: different. */
  relatedMin: number;
  /** Without a logistic model: knots [score, P(same)] of a monotone map; linear between knots, clamped outside. */
  probability: readonly (readonly [score: number, p: number])[];
  /** Of the labelled pairs in Recall's domains that show a contrast, the share that are not the same question. */
  contrastConfidence: number;
  /** P(same) over the alignment and the score; when present, it decides `same` (sameMin and sharedMin are not read). */
  logistic?: SameQuestionLogistic;
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
 * model's calibrated or raw scale, 80 % of content words shared, nothing left unmatched), `different`
 * below 0.6 (the seeds' unrelated line). P(same) is not estimated: confidence says the score itself.
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
export function decideSameQuestion(
  pair: PairMeasure,
  model: Omit<SameQuestionModel, "model"> | null,
  alignment: Alignment = alignQuestions(pair.a, pair.b),
): SameQuestionDecision {
  const thresholds = (model ?? UNFITTED)[pair.method];
  const contrasts = findContrasts(pair.a, pair.b, alignment);
  const { logistic } = thresholds;
  const pSame = logistic ? round(probability(logistic, pairFeatures(pair.score, alignment, contrasts))) : null;
  const evidence: Evidence = {
    score: pair.score,
    method: pair.method,
    sharedWords: pair.sharedWords,
    contrasts,
    onlyA: alignment.onlyA.map((u) => u.text),
    onlyB: alignment.onlyB.map((u) => u.text),
    pSame,
  };
  const p = pSame ?? (thresholds.probability.length > 0 ? piecewiseLinear(pair.score, thresholds.probability) : pair.score);
  const loose = alignment.links.filter((l) => l.kind === "related").map((l) => `${l.a.text} ~ ${l.b.text}`);
  const sure = logistic ? p >= logistic.actMin : pair.score >= thresholds.sameMin && pair.sharedWords >= thresholds.sharedMin;
  const odds = pSame === null ? `score ${pair.score.toFixed(2)}` : `P(same) ${pSame.toFixed(2)}`;
  if (sure && mayActAlone(alignment, contrasts))
    return { relation: "same", confidence: round(p), evidence, reason: `same question: every word matched (${odds})` };
  const relation: Relation =
    pair.score >= thresholds.relatedMin || (contrasts.length > 0 && pair.sharedWords > 0) ? "related" : "different";
  return {
    relation,
    confidence: round(1 - p),
    evidence,
    reason:
      describeDifference(evidence) ??
      (loose.length > 0 && sure
        ? `every word matched, ${loose.join(", ")} only loosely: a person confirms (${odds})`
        : `every word matched, not sure enough to act alone (${odds})`),
  };
}

/**
 * What a pair needs, P(same) aside, before `same` acts alone: every word matched, no contrast, and no
 * link that is only loose. A looser WordNet link (delete ~ remove, but also refund ~ pay) holds in some
 * contexts only: a person confirms it. (scripts/decisions.mjs counts the pairs this lets through.)
 */
export function mayActAlone(alignment: Alignment, contrasts: readonly Contrast[]): boolean {
  return (
    alignment.onlyA.length === 0 &&
    alignment.onlyB.length === 0 &&
    contrasts.length === 0 &&
    !alignment.links.some((l) => l.kind === "related")
  );
}

/** "differs: last ≠ this", "only in b: manager"; null when every word matched. */
function describeDifference({ contrasts, onlyA, onlyB }: Evidence): string | null {
  if (contrasts.length > 0) return `differs: ${contrasts.map((c) => c.detail).join("; ")}`;
  const sides = [onlyA.length ? `only in a: ${onlyA.join(", ")}` : "", onlyB.length ? `only in b: ${onlyB.join(", ")}` : ""];
  return sides.filter(Boolean).join("; ") || null;
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
    ...(t.logistic === undefined ? {} : { logistic: parseLogistic(t.logistic, model) }),
  };
}

function parseLogistic(value: unknown, model: string): SameQuestionLogistic {
  const t = value as Partial<Record<keyof SameQuestionLogistic, unknown>> | null;
  const finite = (x: unknown): x is number => typeof x === "number" && Number.isFinite(x);
  if (
    !t ||
    !Array.isArray(t.weights) ||
    t.weights.length !== FEATURES.length ||
    !t.weights.every(finite) ||
    !finite(t.bias) ||
    !unit(t.actMin)
  )
    throw new Error(`decision table ${model}: logistic needs ${FEATURES.length} finite weights, a bias and actMin in [0, 1]`);
  return { weights: t.weights as number[], bias: t.bias, actMin: t.actMin };
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
