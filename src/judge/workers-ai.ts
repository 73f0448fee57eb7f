/**
 * The Workers AI judge (production): a small instruct model asked for strict JSON. The answer is
 * parsed defensively (the first {...} in the text, fields checked); a malformed one is asked
 * again once, then the heuristic judge decides and the verdict says so.
 */
import { heuristicJudge } from "./heuristic";
import type { FaqForJudge, Judge, MergeVerdict, TicketForJudge } from "./port";

export const DEFAULT_JUDGE_MODEL = "@cf/meta/llama-3.1-8b-instruct";

export interface TextGenerator {
  run(model: string, inputs: { messages: { role: "system" | "user"; content: string }[]; max_tokens?: number }): Promise<unknown>;
}

const SYSTEM = "You compare a support ticket with an FAQ entry. Reply with one JSON object and nothing else.";

export function workersAiJudge(ai: TextGenerator, model: string = DEFAULT_JUDGE_MODEL): Judge {
  const judge = `workers-ai:${model}`;

  async function ask<T>(prompt: string, parse: (o: Record<string, unknown>) => T | null): Promise<T | null> {
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        const out = await ai.run(model, { messages: [{ role: "system", content: SYSTEM }, { role: "user", content: prompt }], max_tokens: 512 });
        const parsed = parse(firstJsonObject(responseText(out)) ?? {});
        if (parsed) return parsed;
      } catch {
        // a failed call counts as a malformed answer: try once more, then fall back
      }
    }
    return null;
  }

  return {
    kind: judge,
    async answerAddsInformation(ticket: TicketForJudge, faq: FaqForJudge) {
      const verdict = await ask(
        `FAQ question: ${faq.question}\nFAQ answer: ${faq.answer}\n\nTicket question: ${ticket.question}\nTicket answer: ${ticket.answer}\n\n` +
          'Does the ticket answer add information the FAQ answer lacks? Reply {"addsInformation": true|false, "rationale": "...", "suggestedAnswer": "the FAQ answer with the new information merged in, only if true"}',
        (o) =>
          typeof o.addsInformation === "boolean" && typeof o.rationale === "string"
            ? {
                addsInformation: o.addsInformation,
                rationale: o.rationale,
                ...(o.addsInformation && typeof o.suggestedAnswer === "string" && o.suggestedAnswer.trim() ? { suggestedAnswer: o.suggestedAnswer } : {}),
                judge,
              }
            : null,
      );
      if (verdict && (!verdict.addsInformation || verdict.suggestedAnswer)) return verdict;
      const fallback = await heuristicJudge.answerAddsInformation(ticket, faq);
      return { ...fallback, judge: `${judge} → heuristic (unusable model answer)` };
    },
    async mergeOrNew(ticket, faq, similarity) {
      const verdict = await ask<MergeVerdict>(
        `FAQ question: ${faq.question}\nFAQ answer: ${faq.answer}\n\nTicket question: ${ticket.question}\nTicket answer: ${ticket.answer}\n\n` +
          'Is the ticket asking the FAQ\'s question (MERGE) or a different question that needs its own FAQ (NEW)? Reply {"action": "MERGE"|"NEW", "rationale": "..."}',
        (o) => ((o.action === "MERGE" || o.action === "NEW") && typeof o.rationale === "string" ? { action: o.action, rationale: o.rationale, judge } : null),
      );
      if (verdict) return verdict;
      const fallback = await heuristicJudge.mergeOrNew(ticket, faq, similarity);
      return { ...fallback, judge: `${judge} → heuristic (unusable model answer)` };
    },
  };
}

/** Text-generation models answer `{ response: string }`. */
function responseText(out: unknown): string {
  const r = (out as { response?: unknown } | null)?.response;
  return typeof r === "string" ? r : "";
}

function firstJsonObject(text: string): Record<string, unknown> | null {
  const start = text.indexOf("{");
  const end = text.lastIndexOf("}");
  if (start < 0 || end <= start) return null;
  try {
    const value: unknown = JSON.parse(text.slice(start, end + 1));
    return value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}
