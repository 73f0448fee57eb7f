/**
 * The context block for an LLM's system prompt (seed 000's format), filled within a token
 * budget (estimateTokens): sections in order of value — similar questions, then relevant
 * memories — each item added only if it still fits, so the block never exceeds it. Memory cards
 * are not shown (seed 003: "cards are internal optimization only"); they rank their source
 * memories, which the block shows in the user's own words.
 */
import { estimateTokens } from "../text/tokens";

export const DEFAULT_CONTEXT_TOKEN_BUDGET = 500;

export interface ContextQuestion {
  content: string;
  category: string | null;
  /** A related question is marked so; the same question asked before keeps seed 000's plain line. */
  relation?: "same" | "related";
}

/**
 * How the block marks a related question: same topic, and the same-question decision is not sure
 * it is the same one (src/decisions), so the assistant should not take its answer for this one's.
 */
export const RELATED_QUESTION_MARK = "(related)";
export interface ContextMemory {
  content: string;
  memoryType: string;
}

export const SIMILAR_QUESTIONS_HEADING = "## Similar Questions You've Asked Before";
export const SIMILAR_QUESTIONS_NOTE = `**NOTE:** These are questions you've asked in past conversations. Use them to:
- Maintain consistency in your answers
- Build on previous explanations
- Reference past discussions if relevant
- Avoid repeating yourself unnecessarily`;

export interface RenderedContext {
  markdown: string;
  tokens: number;
  /** How many items of each section made it into the block. */
  included: { similarQuestions: number; memories: number };
}

export function renderContext(
  parts: { similarQuestions: readonly ContextQuestion[]; memories: readonly ContextMemory[] },
  budget: number = DEFAULT_CONTEXT_TOKEN_BUDGET,
): RenderedContext {
  const blocks: string[] = [];
  let used = 0;
  const fits = (text: string) => used + estimateTokens(text) <= budget;
  const included = { similarQuestions: 0, memories: 0 };

  const section = (heading: string, items: string[], footer?: string): number => {
    const frame = [heading, "", footer ?? ""].join("\n");
    if (items.length === 0 || !fits(`${frame}\n${items[0]}`)) return 0;
    const kept: string[] = [];
    let cost = estimateTokens(frame) + 1;
    for (const item of items) {
      const itemCost = estimateTokens(`${item}\n`);
      if (used + cost + itemCost > budget) break;
      kept.push(item);
      cost += itemCost;
    }
    blocks.push([heading, "", ...kept, ...(footer ? ["", footer] : [])].join("\n"));
    used += cost;
    return kept.length;
  };

  included.similarQuestions = section(
    SIMILAR_QUESTIONS_HEADING,
    parts.similarQuestions.map(
      (q, i) =>
        `${i + 1}. ${oneLine(q.content)}${q.relation === "related" ? ` ${RELATED_QUESTION_MARK}` : ""}${q.category ? `\n   Context: Category: ${q.category}` : ""}`,
    ),
    SIMILAR_QUESTIONS_NOTE,
  );
  included.memories = section(
    "## Relevant Memories",
    parts.memories.map((m) => `- [${m.memoryType}] ${oneLine(m.content)}`),
  );
  const markdown = blocks.join("\n\n");
  return { markdown, tokens: estimateTokens(markdown), included };
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}
