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

/**
 * What the same-question decision's alignment left unmatched (src/core/decisions/align.ts): the words
 * only one side says and the differences it could name. The judge reads them beside the texts.
 */
export interface PairLeftovers {
  onlyTicket: readonly string[];
  onlyFaq: readonly string[];
  differs: readonly string[];
}

export interface Judge {
  readonly kind: string;
  /** Does the ticket's answer add information to the FAQ's answer? */
  answerAddsInformation(ticket: TicketForJudge, faq: FaqForJudge): Promise<AnswerVerdict>;
  /** For a match the same-question decision is not sure of: is the ticket the FAQ's question (MERGE) or another one (NEW)? */
  mergeOrNew(ticket: TicketForJudge, faq: FaqForJudge, similarity: number, leftovers?: PairLeftovers): Promise<MergeVerdict>;
}
