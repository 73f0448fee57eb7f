/**
 * The ticket pipeline's decision (seed 002 §5.2, §8.2), on calibrated similarity
 * (src/calibration) between the ticket's question and the closest FAQ question or variant:
 *
 * | similarity  | answer adds information? | action                      | staging |
 * |-------------|--------------------------|-----------------------------|---------|
 * | ≥ 0.95      | —                        | SKIP                        | no      |
 * | ≥ 0.85      | no                       | ADD_VARIANT                 | no      |
 * | ≥ 0.85      | yes                      | MERGE (+ the variant)       | yes     |
 * | 0.70 – 0.85 | the judge decides        | MERGE or NEW                | yes     |
 * | < 0.70      | —                        | NEW                         | yes     |
 */
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
 * The action for a band and the judge's verdicts: `addsInformation` answers "does the ticket's
 * answer add to the FAQ's?" (asked in the same_question band), `mergeOrNew` decides the related
 * band. A verdict a band does not need is ignored.
 */
export function decideAction(band: SimilarityBand, verdict: { addsInformation?: boolean; mergeOrNew?: "MERGE" | "NEW" }): TicketAction {
  switch (band) {
    case "duplicate":
      return "SKIP";
    case "same_question":
      return verdict.addsInformation ? "MERGE" : "ADD_VARIANT";
    case "related":
      return verdict.mergeOrNew ?? "NEW";
    case "new":
      return "NEW";
  }
}
