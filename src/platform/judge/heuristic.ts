/**
 * The deterministic judge (no LLM bound; local and tests):
 * - the ticket's answer adds information when it brings at least NEW_TERMS_FOR_NEW_INFO content
 *   terms the FAQ answer lacks AND they are at least NEW_TERM_SHARE of its terms, typography aside
 *   ("5-10" and "5–10 days", curly and straight quotes are one text); the suggested merged answer
 *   appends the ticket's sentences that carry new terms;
 * - a related match is the same question (MERGE) when the two questions share at least
 *   SAME_QUESTION_SHARED_WORDS of their content words (Ochiai), else a different one (NEW).
 */
import { lexicalSimilarity, lexicalTerms } from "../../core/ranking/lexical";
import type { Judge } from "./port";

export const NEW_TERMS_FOR_NEW_INFO = 3;
export const NEW_TERM_SHARE = 0.3;
export const SAME_QUESTION_SHARED_WORDS = 0.5;

export const heuristicJudge: Judge = {
  kind: "heuristic",
  async answerAddsInformation(ticket, faq) {
    const known = new Set(lexicalTerms(plainTypography(faq.answer)));
    const terms = lexicalTerms(plainTypography(ticket.answer));
    const fresh = terms.filter((t) => !known.has(t));
    const adds = fresh.length >= NEW_TERMS_FOR_NEW_INFO && fresh.length / Math.max(1, terms.length) >= NEW_TERM_SHARE;
    const rationale = `${fresh.length} of ${terms.length} answer terms are new (${fresh.slice(0, 8).join(", ") || "none"})`;
    if (!adds) return { addsInformation: false, rationale, judge: "heuristic" };
    const freshSet = new Set(fresh);
    const newSentences = ticket.answer
      .split(/(?<=[.!?。！？])\s+/u)
      .filter((sentence) => lexicalTerms(plainTypography(sentence)).some((t) => freshSet.has(t)));
    return {
      addsInformation: true,
      suggestedAnswer: `${faq.answer.trim()}\n\n${newSentences.join(" ").trim()}`,
      rationale,
      judge: "heuristic",
    };
  },
  async mergeOrNew(ticket, faq, similarity) {
    const shared = lexicalSimilarity(lexicalTerms(ticket.question), lexicalTerms(faq.question));
    const action = shared >= SAME_QUESTION_SHARED_WORDS ? "MERGE" : "NEW";
    return { action, rationale: `similarity ${similarity.toFixed(2)}, shared content words ${shared.toFixed(2)}`, judge: "heuristic" };
  },
};

/** Dashes and hyphens as spaces, quotes and apostrophes dropped, widths folded: what typography changes but words do not. */
function plainTypography(text: string): string {
  return text
    .normalize("NFKC")
    .replace(/[\u002d\u2010-\u2015\u2212]/g, " ")
    .replace(/['"\u2018\u2019\u201a\u201b\u201c\u201d\u201e\u00ab\u00bb]/g, "");
}
