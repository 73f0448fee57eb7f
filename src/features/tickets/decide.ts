/**
 * The ticket pipeline's decision (seed 002 §5.2, §8.2), on calibrated similarity
 * (src/core/calibration) between the ticket's question and the closest FAQ question or variant, and
 * the same-question decision (src/core/decisions) on that pair:
 *
 * | similarity  | same question?                          | answer adds information? | action                 | staging |
 * |-------------|-----------------------------------------|--------------------------|------------------------|---------|
 * | —           | known: the question is already a phrasing of the FAQ (its question or a variant, case, punctuation and spacing aside) | — | SKIP | no |
 * | ≥ 0.70      | sure, in a new phrasing                 | no                       | ADD_VARIANT            | no      |
 * | ≥ 0.70      | sure, in a new phrasing                 | yes                      | MERGE (+ the variant)  | yes     |
 * | any         | differs (a decisive contrast)           | —                        | NEW                    | yes     |
 * | ≥ 0.85      | not sure                                | —                        | MERGE (+ the variant)  | yes     |
 * | 0.70 – 0.85 | not sure                                | the judge decides        | MERGE or NEW           | yes     |
 * | < 0.70      | —                                       | —                        | NEW                    | yes     |
 *
 * A rewording is what seed 002's variants exist for, so a sure match in a new phrasing becomes a
 * variant, however high its similarity; only a phrasing the FAQ already has is skipped. SKIP and
 * ADD_VARIANT act without a person (a SKIP loses the ticket's question, an ADD_VARIANT puts a
 * variant live), so they need the decision to be sure; short of that the ticket waits in staging,
 * where a person sees why.
 */
import { DECISIVE_CONTRASTS } from "../../core/decisions/contrasts";
import type { SameQuestionDecision } from "../../core/decisions/same-question";

export const SIMILARITY_SKIP = 0.95;
export const SIMILARITY_VARIANT = 0.85;
export const SIMILARITY_MERGE = 0.7;

export type TicketAction = "SKIP" | "ADD_VARIANT" | "MERGE" | "NEW";

/** What the similarity alone says, before any judge is asked. */
export type SimilarityBand = "duplicate" | "same_question" | "related" | "new";

export function similarityBand(similarity: number | null): SimilarityBand {
  if (similarity === null || similarity < SIMILARITY_MERGE) return "new";
  if (similarity >= SIMILARITY_SKIP) return "duplicate";
  if (similarity >= SIMILARITY_VARIANT) return "same_question";
  return "related";
}

/**
 * What the same-question decision said of the pair: the phrasing is the FAQ's already, sure it is
 * one question, a decisive contrast between them, or none of these. A `different` relation alone
 * is not decisive here: it reads the repeat score, which puts paraphrases the calibrated similarity
 * calls close ("How do I end my membership?" / "How do I cancel my subscription?", 0.88) under its
 * line; such a pair goes to a person as a MERGE.
 */
export type SameQuestion = "known" | "sure" | "differs" | "unsure";

/** The pipeline's reading of a same-question decision (null: nothing matched); `known`: the FAQ already has the phrasing. */
export function sameQuestionVerdict(decision: SameQuestionDecision | null, known = false): SameQuestion {
  if (known) return "known";
  if (decision?.relation === "same") return "sure";
  return decision?.evidence.contrasts.some((c) => DECISIVE_CONTRASTS.has(c.kind)) ? "differs" : "unsure";
}

/**
 * The action for a band, the same-question decision and the judge's verdicts: `addsInformation`
 * answers "does the ticket's answer add to the FAQ's?" (asked when sure of the same question),
 * `mergeOrNew` decides the related band when not sure. A verdict a case does not need is ignored.
 */
export function decideAction(
  band: SimilarityBand,
  same: SameQuestion,
  verdict: { addsInformation?: boolean; mergeOrNew?: "MERGE" | "NEW" },
): TicketAction {
  if (same === "known") return "SKIP";
  if (band === "new" || same === "differs") return "NEW";
  if (same === "sure") return verdict.addsInformation ? "MERGE" : "ADD_VARIANT";
  if (band === "related") return verdict.mergeOrNew ?? "NEW";
  return "MERGE";
}
