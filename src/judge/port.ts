/**
 * The Judge port: the ticket pipeline's two questions a similarity cannot answer. Production binds
 * a Workers AI instruct model; locally and in tests a deterministic heuristic decides. Every
 * verdict says which judge made it and why.
 */
export interface TicketForJudge {
  question: string;
  answer: string;
}
export interface FaqForJudge {
  question: string;
  answer: string;
}

export interface AnswerVerdict {
  addsInformation: boolean;
  /** The FAQ answer with the ticket's new information merged in, when it adds some. */
  suggestedAnswer?: string;
  rationale: string;
  judge: string;
}

export interface MergeVerdict {
  action: "MERGE" | "NEW";
  rationale: string;
  judge: string;
}

export interface Judge {
  readonly kind: string;
  /** Does the ticket's answer add information to the FAQ's answer? */
  answerAddsInformation(ticket: TicketForJudge, faq: FaqForJudge): Promise<AnswerVerdict>;
  /** For a related (0.70–0.85) match: is the ticket the FAQ's question (MERGE) or another one (NEW)? */
  mergeOrNew(ticket: TicketForJudge, faq: FaqForJudge, similarity: number): Promise<MergeVerdict>;
}
