/**
 * The context block for an LLM's system prompt (seed 000's format), filled within a token
 * budget (estimateTokens): sections in seed 000's order — similar questions, then relevant
 * memories — so the block never exceeds it. A question is added only if it fits whole, within half
 * the budget when there are memories; memories share what is left, a long one shortened around the query's terms rather than dropped. Memory cards
 * are not shown (seed 003: "cards are internal optimization only"); they rank their source
 * memories, which the block shows in the user's own words.
 */
import { estimateTokens } from "../../core/text/tokens";
import { excerpt } from "./excerpt";

export const DEFAULT_CONTEXT_TOKEN_BUDGET = 500;

export interface ContextQuestion {
  content: string;
  category: string | null;
  /** A related question is marked so; the same question asked before keeps seed 000's plain line. */
  relation?: "same" | "related";
}

/**
 * How the block marks a related question: same topic, and the same-question decision is not sure
 * it is the same one (src/core/decisions), so the assistant should not take its answer for this one's.
 */
export const RELATED_QUESTION_MARK = "(related)";
export interface ContextMemory {
  content: string;
  memoryType: string;
  /** ISO time a later statement ended it: marked "[fact, until 2026-11]", so the assistant never takes it for the answer. */
  endedAt?: string | null;
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

/**
 * `terms` are the query's content terms: a memory too long for its share of the budget is
 * shortened around them (excerpt.ts) instead of dropped.
 */
export function renderContext(
  parts: { similarQuestions: readonly ContextQuestion[]; memories: readonly ContextMemory[] },
  budget: number = DEFAULT_CONTEXT_TOKEN_BUDGET,
  terms: readonly string[] = [],
): RenderedContext {
  const blocks: string[] = [];
  let used = 0;
  const included = { similarQuestions: 0, memories: 0 };

  const section = (heading: string, items: string[], footer?: string): number => {
    if (items.length === 0) return 0;
    blocks.push([heading, "", ...items, ...(footer ? ["", footer] : [])].join("\n"));
    used += frameCost(heading, footer) + items.reduce((sum, item) => sum + lineCost(item), 0);
    return items.length;
  };

  const questions = parts.similarQuestions.map(
    (q, i) =>
      `${i + 1}. ${oneLine(q.content)}${q.relation === "related" ? ` ${RELATED_QUESTION_MARK}` : ""}${q.category ? `\n   Context: Category: ${q.category}` : ""}`,
  );
  // With memories to show, the questions (first in the block) may take at most QUESTIONS_SHARE of
  // it: long or many questions once used it all, and the memories that answer the prompt got none.
  const questionsRoom = parts.memories.length > 0 ? Math.floor(budget * QUESTIONS_SHARE) : budget;
  included.similarQuestions = section(
    SIMILAR_QUESTIONS_HEADING,
    whileRoom(questions, questionsRoom - frameCost(SIMILAR_QUESTIONS_HEADING, SIMILAR_QUESTIONS_NOTE)),
    SIMILAR_QUESTIONS_NOTE,
  );
  included.memories = section(
    MEMORIES_HEADING,
    shareRoom(
      parts.memories.map((m) => ({
        // The end stays in the head: shortening a long memory never cuts it off.
        head: m.endedAt ? `- [${m.memoryType}, until ${m.endedAt.slice(0, 7)}] ` : `- [${m.memoryType}] `,
        body: m.content,
      })),
      budget - used - frameCost(MEMORIES_HEADING),
      terms,
    ),
  );
  const markdown = blocks.join("\n\n");
  return { markdown, tokens: estimateTokens(markdown), included };
}

const MEMORIES_HEADING = "## Relevant Memories";
/** The most of the budget similar questions take when there are memories too. */
export const QUESTIONS_SHARE = 0.5;
/** Below this a shortened memory says too little: the lowest-ranked memories are left out instead. */
export const MIN_EXCERPT_TOKENS = 30;

const frameCost = (heading: string, footer?: string) => estimateTokens([heading, "", footer ?? ""].join("\n")) + 1;
const lineCost = (line: string) => estimateTokens(`${line}\n`);

/** The items, in rank order, while they fit whole. */
function whileRoom(items: readonly string[], room: number): string[] {
  const kept: string[] = [];
  for (const item of items) {
    room -= lineCost(item);
    if (room < 0) break;
    kept.push(item);
  }
  return kept;
}

/**
 * Memories share the room: each gets its whole text or, when the room cannot hold them all, at
 * most an equal share of what the shorter ones leave (water-filling), shortened around the query's
 * terms. The lowest-ranked memories are left out when a share would fall under MIN_EXCERPT_TOKENS.
 */
function shareRoom(items: readonly { head: string; body: string }[], room: number, terms: readonly string[]): string[] {
  for (let n = items.length; n > 0; n--) {
    const kept = items.slice(0, n);
    const whole = kept.map((it) => `${it.head}${oneLine(it.body)}`);
    const costs = whole.map(lineCost);
    const cap = waterLevel(costs, room);
    if (cap === Infinity) return whole;
    if (cap < MIN_EXCERPT_TOKENS) continue;
    return kept.map((it, k) => (costs[k]! <= cap ? whole[k]! : `${it.head}${excerpt(it.body, terms, cap - lineCost(it.head))}`));
  }
  return [];
}

/** The largest share c such that Σ min(cost, c) ≤ room; Infinity when every cost fits whole. */
function waterLevel(costs: readonly number[], room: number): number {
  const sorted = [...costs].sort((a, b) => a - b);
  let left = room;
  for (let i = 0; i < sorted.length; i++) {
    const share = Math.floor(left / (sorted.length - i));
    if (sorted[i]! > share) return share;
    left -= sorted[i]!;
  }
  return Infinity;
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}
