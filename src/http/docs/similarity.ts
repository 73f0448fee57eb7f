import { z } from "zod";
import { CONTRAST_KINDS } from "../../core/decisions/contrasts";
import { describe } from "../openapi/describe";
import { obj, rawCosine, similarity, unit } from "./common";

/** The same-question decision's evidence (src/core/decisions/same-question.ts), as every route answers it. */
export const SameQuestionEvidence = obj({
  score: unit.describe("What the thresholds compared: the repeat score (cosine and shared words on the model's scale), or shared words"),
  method: z.enum(["embedding", "lexical"]),
  sharedWords: unit.describe("Share of content words the texts have in common (Ochiai)"),
  contrasts: z
    .array(obj({ kind: z.enum(CONTRAST_KINDS), detail: z.string() }))
    .describe(
      "What differs, named: a code, the opposite action, a named thing, a small word that changes the answer, words that change places; any contrast rules out same",
    ),
  onlyA: z.array(z.string()).describe("Words of a that nothing in b matches (by lemma, spelling, synonym or stem), as written"),
  onlyB: z.array(z.string()).describe("Words of b that nothing in a matches"),
  pSame: unit.nullable().describe("P(same question) from the model fitted on labelled pairs; null when the model has no fitted table"),
});

export const Explanation = obj({
  similarity: similarity.describe("Calibrated similarity of the two texts' embeddings; null when they were not both embedded"),
  rawCosine,
  model: z.string().describe("The embedding model whose scale and fitted thresholds decided"),
  decision: z
    .enum(["same", "related", "different"])
    .describe(
      "same: one answer serves both, sure enough to act alone (dedupe, SKIP, ADD_VARIANT, the show's block); related: same topic, not sure, so a person sees it; different: nothing to show as asked before",
    ),
  confidence: unit.describe("How likely the decision is right, from the labelled pairs the thresholds were fitted on"),
  reason: z
    .string()
    .describe('One line a person reads: "same question: every word matched (P(same) 0.97)", "differs: e500 ≠ e501", "only in b: manager"'),
  evidence: SameQuestionEvidence,
  degraded: z.array(z.enum(["embeddings"])).describe("embeddings: the model was unavailable, so shared words decided"),
});

export const similarityDocs = {
  explain: describe({
    tag: "Similarity",
    summary: "Explain whether two questions are the same",
    description:
      "The one same-question decision behind record-time dedupe, similar questions, the show's repeat block and the ticket pipeline, for any two texts, with the evidence that decided: the calibrated similarity, shared words, the words each side says that the other does not match (onlyA, onlyB), what differs by name (codes and numbers, opposite actions, named things, negation, the slot asked for, time, period, degree, words that change places) and P(same). Records nothing.",
    responses: { 200: Explanation },
    requestExample: { a: "What does error E500 mean?", b: "What does error E501 mean?" },
  }),
};
