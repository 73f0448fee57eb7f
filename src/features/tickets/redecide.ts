/**
 * A staged item decided again, against the knowledge base as it is now. An item waits in
 * staging for days while FAQs are added, edited and approved: a NEW proposal staged when no FAQ
 * was close may, by the time someone reviews it, ask a question an FAQ now answers, and
 * approving it would make a second FAQ for one question. So the review desk shows this instead
 * of (beside) the decision of the day it was staged, and approving a NEW item refuses when the
 * pipeline would no longer propose NEW (staging.ts).
 *
 * The same steps as the consumer (consume.ts): best match over questions and variants,
 * similarity band, same-question decision with its evidence. The judge is not asked (a model call
 * per page view): where its verdict would decide, `actions` names both outcomes.
 */
import type { SameQuestionDecision } from "../../core/decisions/same-question";
import type { Services } from "../../platform/ports/services";
import { decideAction, type SimilarityBand, type TicketAction } from "./decide";
import { assess, type TicketMatch } from "./match";

export interface Redecision {
  match: TicketMatch | null;
  band: SimilarityBand;
  sameQuestion: SameQuestionDecision | null;
  /** What the pipeline would do now: one action, or the two its judge would choose between. */
  actions: TicketAction[];
  /**
   * An FAQ asks this question already, so approving NEW would duplicate it: the pipeline would not propose a new FAQ now, and
   * the same-question decision does not call the two different (on a small model unrelated questions can sit in the
   * same-question band; the pipeline then stages a MERGE for a person, but a refusal must not rest on the band alone).
   */
  duplicate: boolean;
  /** What was staged is not what the pipeline would do now (another action, or a MERGE into another FAQ). */
  stale: boolean;
}

/** What the item proposed when it was staged. */
export interface Staged {
  action: "MERGE" | "NEW";
  faqId: string | null;
}

/** Decides `question` (the ticket's cleaned question, or the reviewer's edit of it) against the FAQs as they are now. Throws PipelineUnavailable when the embedder or index is down. */
export async function redecide(services: Services, tenantId: string, question: string, staged: Staged): Promise<Redecision> {
  const { match, band, sameQuestion, same } = await assess(services, tenantId, question);
  // Both ways a judge could answer: where they agree the thresholds decided alone.
  const actions = [
    ...new Set([
      decideAction(band, same, { addsInformation: false, mergeOrNew: "MERGE" }),
      decideAction(band, same, { addsInformation: true, mergeOrNew: "NEW" }),
    ]),
  ];
  const stale = !actions.includes(staged.action) || (staged.action === "MERGE" && match?.faq.id !== staged.faqId);
  const duplicate = match !== null && !actions.includes("NEW") && sameQuestion?.relation !== "different";
  return { match, band, sameQuestion, actions, duplicate, stale };
}

/** The question a staged item asks: a MERGE item keeps the ticket's question as its variant, a NEW item as its question. */
export const askedBy = (item: { action: "MERGE" | "NEW"; question: string; variantText: string | null }) =>
  item.action === "MERGE" ? (item.variantText ?? item.question) : item.question;
