/**
 * Temporal decay, novelty (seed 004, "Novelty Score Calculation") and the pairwise similarity
 * the show pipeline compares: calibrated embedding cosine when both texts have a vector of the
 * active model, otherwise a lexical similarity (see lexicalSimilarity).
 */
import type { Calibration } from "../calibration/calibration";
import { decideSameQuestion, type SameQuestionDecision, type SameQuestionModel } from "../decisions/same-question";
import { cosine } from "../ranking/cosine";
import { lexicalSimilarity } from "../ranking/lexical";
import { lexicalEvidence, type RepeatModel, repeatSimilarity } from "../ranking/repeat";
import {
  DEFAULT_DECAY_TIME_CONSTANT_MINUTES,
  EXPLORATION_AVERAGE_THRESHOLD,
  EXPLORATION_BONUS,
  HISTORY_WINDOW_MINUTES,
} from "./novelty-config";

export { lexicalSimilarity, lexicalTerms } from "../ranking/lexical";

export const MS_PER_MINUTE = 60_000;

/** e^(−t/τ): the seed's decay (5 min → 0.85, 15 → 0.61, 30 → 0.37, 60 → 0.14 with τ = 30). */
export function decayFactor(ageMinutes: number, timeConstantMinutes: number = DEFAULT_DECAY_TIME_CONSTANT_MINUTES): number {
  return Math.exp(-Math.max(0, ageMinutes) / timeConstantMinutes);
}

export interface PastSimilarity {
  /** Calibrated (or lexical) similarity, already scaled for used questions. */
  similarity: number;
  ageMinutes: number;
}

/**
 * Seed formula: 1 − max(similarity × decay(age)), + EXPLORATION_BONUS when the average
 * (undecayed) similarity to the questions of the last 30 min is below 0.4 (an empty last
 * 30 min counts as average 0), capped at 1.
 */
export function noveltyScore(past: readonly PastSimilarity[], timeConstantMinutes: number = DEFAULT_DECAY_TIME_CONSTANT_MINUTES): number {
  let maxWeighted = 0;
  let recentSum = 0;
  let recentCount = 0;
  for (const { similarity, ageMinutes } of past) {
    maxWeighted = Math.max(maxWeighted, similarity * decayFactor(ageMinutes, timeConstantMinutes));
    if (ageMinutes < HISTORY_WINDOW_MINUTES) {
      recentSum += similarity;
      recentCount++;
    }
  }
  const average = recentCount > 0 ? recentSum / recentCount : 0;
  const bonus = average < EXPLORATION_AVERAGE_THRESHOLD ? EXPLORATION_BONUS : 0;
  return Math.min(1 - maxWeighted + bonus, 1);
}

/** A text as the pipeline compares it. */
export interface Comparable {
  text: string;
  /** A vector of the active embedding model, or null when the model cannot embed the text. */
  vector: Float32Array | null;
  /** lexicalTerms(text). */
  terms: readonly string[];
}

export interface Similarity {
  /**
   * What thresholds compare: the repeat similarity (cosine + lexical evidence, src/core/ranking/repeat.ts)
   * when the model has a repeat table, else the calibrated cosine; the lexical similarity for texts
   * without vectors.
   */
  similarity: number;
  /** The raw cosine when both texts had vectors, else null. */
  rawCosine: number | null;
  method: "embedding" | "lexical";
}

export function similarityOf(a: Comparable, b: Comparable, calibration: Calibration | null, repeat: RepeatModel | null = null): Similarity {
  if (a.vector && b.vector && a.vector.length === b.vector.length) {
    const raw = cosine(a.vector, b.vector);
    const lexical = repeat ? lexicalEvidence(a.terms, b.terms) : 0;
    return { similarity: repeatSimilarity(raw, lexical, repeat, calibration), rawCosine: raw, method: "embedding" };
  }
  return { similarity: lexicalSimilarity(a.terms, b.terms), rawCosine: null, method: "lexical" };
}

/**
 * Same question or not (src/core/decisions) for a pair the show has already measured: the repeat
 * similarity is the decision's score, so nothing is computed twice.
 */
export function decideRepeat(a: Comparable, b: Comparable, s: Similarity, model: SameQuestionModel | null): SameQuestionDecision {
  const sharedWords = s.method === "lexical" ? s.similarity : lexicalSimilarity(a.terms, b.terms);
  return decideSameQuestion({ a: a.text, b: b.text, score: s.similarity, method: s.method, sharedWords }, model);
}

/** Texts equal after case, width and whitespace folding are the same question. */
export function normalizeQuestion(text: string): string {
  return text.normalize("NFKC").toLowerCase().replace(/\s+/g, " ").trim();
}
