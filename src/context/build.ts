/**
 * POST /v1/context: what an assistant should know before answering a prompt. Trivial prompts
 * (seed 001) return at once, with no search and no embedding call. Otherwise the prompt is
 * enriched with the session's files, embedded once, and three lookups run side by side —
 * similar questions, relevant memories, cards answering the question — rendered as one markdown
 * block within a token budget. Additive only (seed 000): a failing part is left out and named in
 * `degraded`; the call itself still answers.
 */
import { lookupCards } from "../cards/store";
import { type Degradation, embedQuery, type MemoryHit, searchMemories } from "../memories/search";
import { findSimilarQuestions, type SimilarQuestion } from "../questions/similar";
import type { Services } from "../services";
import { recentFileNames } from "../sessions/files";
import { slotsForQuestion } from "../text/cards";
import { classifyQuery } from "../text/classify";
import { enrichQuery } from "../text/enrich";
import { isQuestion } from "../text/is-question";
import { normalizeText } from "../text/normalize";
import { renderContext } from "./markdown";

/** Prompts are cut to this many characters before embedding and search. */
export const MAX_CONTEXT_PROMPT_CHARS = 2000;
/** Relevant memories (facts, decisions, insights) considered for the block. */
export const CONTEXT_MEMORIES = 5;
/** A memory found only by its vector must be at least this similar (calibrated) to be "relevant". */
export const MIN_MEMORY_SIMILARITY = 0.6;

export type ContextDegradation = Degradation | "similar_questions" | "memories" | "session_files";

export interface ContextArgs {
  scope: string;
  prompt: string;
  sessionId?: string | undefined;
  tokenBudget: number;
}

export interface ContextResult {
  class: "searchable" | "trivial";
  reason?: string;
  isQuestion: boolean;
  enrichedQuery?: string;
  markdown: string;
  tokens: number;
  sections: {
    similarQuestions: SimilarQuestion[];
    memories: Pick<MemoryHit, "id" | "content" | "memoryType" | "score" | "similarity" | "createdAt">[];
    cards: { slot: string; value: string; sourceMemoryId: string }[];
  };
  degraded: ContextDegradation[];
}

/** Where the time went, for the Server-Timing header (filled in as the build runs). */
export interface ContextTimings {
  embedMs: number;
}

export async function buildContext(services: Services, tenantId: string, args: ContextArgs, timings: ContextTimings = { embedMs: 0 }): Promise<ContextResult> {
  const empty = { markdown: "", tokens: 0, sections: { similarQuestions: [], memories: [], cards: [] } };
  const classified = classifyQuery(args.prompt);
  if (classified.class === "trivial") return { class: "trivial", reason: classified.reason, isQuestion: false, ...empty, degraded: [] };

  const prompt = normalizeText(args.prompt, MAX_CONTEXT_PROMPT_CHARS).text;
  const degraded = new Set<ContextDegradation>();
  const files = args.sessionId
    ? await recentFileNames(services.db, tenantId, args.sessionId).catch(() => {
        degraded.add("session_files");
        return [];
      })
    : [];
  const enriched = enrichQuery(prompt, files);
  const searchText = files.length > 0 ? `${prompt} ${files.join(" ")}` : prompt;
  const embedDegraded: Degradation[] = [];
  const embedStarted = performance.now();
  const queryVector = await embedQuery(services, enriched, embedDegraded);
  timings.embedMs = performance.now() - embedStarted;
  for (const d of embedDegraded) degraded.add(d);
  const asked = isQuestion(prompt);

  const [similar, memories, cards] = await Promise.all([
    asked
      ? findSimilarQuestions(services, tenantId, {
          scope: args.scope,
          text: searchText,
          limit: 3,
          excludeSessionId: args.sessionId,
          queryVector,
        }).catch(() => {
          degraded.add("similar_questions");
          return null;
        })
      : null,
    searchMemories(services, tenantId, {
      scope: args.scope,
      query: searchText,
      limit: CONTEXT_MEMORIES,
      memoryTypes: ["fact", "decision", "insight"],
      queryVector,
      minSimilarity: MIN_MEMORY_SIMILARITY,
    }).catch(() => {
      degraded.add("memories");
      return null;
    }),
    lookupCards(services.db, tenantId, args.scope, "user", slotsForQuestion(prompt)).catch(() => {
      degraded.add("cards");
      return [];
    }),
  ]);
  for (const d of [...(similar?.degraded ?? []), ...(memories?.degraded ?? [])]) degraded.add(d);

  const sections: ContextResult["sections"] = {
    similarQuestions: similar?.questions ?? [],
    memories: (memories?.results ?? []).map(({ id, content, memoryType, score, similarity, createdAt }) => ({
      id,
      content,
      memoryType,
      score,
      similarity,
      createdAt,
    })),
    cards: cards.map((c) => ({ slot: c.slot, value: c.value, sourceMemoryId: c.source_memory_id })),
  };
  const rendered = renderContext(sections, args.tokenBudget);
  return {
    class: "searchable",
    isQuestion: asked,
    ...(files.length > 0 ? { enrichedQuery: enriched } : {}),
    markdown: rendered.markdown,
    tokens: rendered.tokens,
    sections,
    degraded: [...degraded],
  };
}
