/**
 * A pair of questions measured the one way every feature measures it, then decided
 * (same-question.ts): dedupe, "asked before", the show and the ticket pipeline all call decidePair.
 */
import type { Calibration } from "../calibration/calibration";
import { calibrationFor, repeatModelFor, sameQuestionModelFor } from "../calibration/registry";
import { lexicalSimilarity, lexicalTerms } from "../ranking/lexical";
import { lexicalEvidence, type RepeatModel, repeatSimilarity } from "../ranking/repeat";
import { decideSameQuestion, type PairMeasure, type SameQuestionDecision, type SameQuestionModel } from "./same-question";

/** What a model's decisions read: its calibration, its repeat map and its decision thresholds. */
export interface DecisionTables {
  model: string;
  calibration: Calibration | null;
  repeat: RepeatModel | null;
  decision: SameQuestionModel | null;
}

const tables = new Map<string, DecisionTables>();

export function decisionTablesFor(model: string): DecisionTables {
  let found = tables.get(model);
  if (!found) {
    found = { model, calibration: calibrationFor(model), repeat: repeatModelFor(model), decision: sameQuestionModelFor(model) };
    tables.set(model, found);
  }
  return found;
}

/**
 * The pair's measure: with a raw cosine (both texts embedded by the model), the repeat score
 * (cosine + lexical overlap on the model's scale); without one, the shared content words.
 */
export function measurePair(a: string, b: string, rawCosine: number | null, tables: DecisionTables): PairMeasure {
  const termsA = lexicalTerms(a);
  const termsB = lexicalTerms(b);
  const sharedWords = lexicalSimilarity(termsA, termsB);
  if (rawCosine === null) return { a, b, score: sharedWords, method: "lexical", sharedWords };
  const score = repeatSimilarity(rawCosine, lexicalEvidence(termsA, termsB), tables.repeat, tables.calibration);
  return { a, b, score, method: "embedding", sharedWords };
}

export function decidePair(a: string, b: string, rawCosine: number | null, tables: DecisionTables): SameQuestionDecision {
  return decideSameQuestion(measurePair(a, b, rawCosine, tables), tables.decision);
}
