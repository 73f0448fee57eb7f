/**
 * A pair of questions measured the one way every feature measures it, then decided
 * (same-question.ts): dedupe, "asked before", the show and the ticket pipeline all call decidePair.
 */
import type { Scale } from "./scale";
import { lexicalSimilarity, lexicalTerms } from "../ranking/lexical";
import { lexicalEvidence, repeatSimilarity } from "../ranking/repeat";
import { decideSameQuestion, type PairMeasure, type SameQuestionDecision } from "../decisions/same-question";

/**
 * The pair's measure: with a raw cosine (both texts embedded by the model), the repeat score
 * (cosine + lexical overlap on the model's scale); without one, the shared content words.
 */
export function measurePair(a: string, b: string, rawCosine: number | null, scale: Scale): PairMeasure {
  const termsA = lexicalTerms(a);
  const termsB = lexicalTerms(b);
  const sharedWords = lexicalSimilarity(termsA, termsB);
  if (rawCosine === null) return { a, b, score: sharedWords, method: "lexical", sharedWords };
  const score = repeatSimilarity(rawCosine, lexicalEvidence(termsA, termsB), scale.repeat, scale.calibration);
  return { a, b, score, method: "embedding", sharedWords };
}

export function decidePair(a: string, b: string, rawCosine: number | null, scale: Scale): SameQuestionDecision {
  return decideSameQuestion(measurePair(a, b, rawCosine, scale), scale.decision);
}
