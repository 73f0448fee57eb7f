/**
 * POST /v1/context: what an assistant should know before answering a prompt. Trivial prompts
 * (seed 001) return at once, with no search and no embedding call. Otherwise the prompt is
 * enriched with the session's files, embedded once, and one memory search (whose card path
 * boosts the memories that state what the question asks) is split into similar questions and
 * relevant memories, rendered as one markdown block within a token budget. Cards themselves stay
 * internal (seed 003). Additive only (seed 000): a failing part is left out and named in
 * `degraded`; the call itself still answers.
 */
import { type Degradation, embedQuery, MIN_KEYWORD_COVERAGE, type MemoryHit, meetsFloor, searchMemories } from "../memories/search";
import { askedBefore, MIN_SIMILAR_QUESTION_SIMILARITY, type SimilarQuestion } from "../questions/similar";
import type { Services } from "../../platform/ports/services";
import { recentFileNames } from "../sessions/files";
import { classifyQuery } from "../../core/text/classify";
import { enrichQuery } from "../../core/text/enrich";
import { lexicalTerms } from "../../core/ranking/lexical";
import { informationNeed } from "../../core/text/need";
import { normalizeText } from "../../core/text/normalize";
import { renderContext } from "./markdown";

/** Prompts are cut to this many characters before embedding and search. */
export const MAX_CONTEXT_PROMPT_CHARS = 2000;
/** Relevant memories (facts, decisions, insights) in the block. */
export const CONTEXT_MEMORIES = 5;
/** Similar questions in the block (seed 000: 3). */
export const SIMILAR_QUESTIONS_IN_CONTEXT = 3;
/** Candidates ranked for both sections at once: enough that neither type crowds out the other. */
export const CONTEXT_CANDIDATES = 30;
/**
 * A memory found only by its vector must be at least this similar (calibrated) to be relevant;
 * the same floor as for similar questions.
 */
export const MIN_MEMORY_SIMILARITY = MIN_SIMILAR_QUESTION_SIMILARITY;
/**
 * A memory found only by keyword must contain at least this share of the prompt's content terms
 * to be "relevant": looser than a similar question's MIN_KEYWORD_COVERAGE, which claims the user
 * asked the same thing before.
 */
export const MIN_MEMORY_KEYWORD_COVERAGE = 0.25;
const QUESTION_FLOOR = { similarity: MIN_SIMILAR_QUESTION_SIMILARITY, keywordCoverage: MIN_KEYWORD_COVERAGE };

export type ContextDegradation = Degradation | "memories" | "session_files";

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
    memories: (Pick<MemoryHit, "id" | "content" | "memoryType" | "score" | "similarity" | "createdAt"> & { endedAt: string | null })[];
  };
  degraded: ContextDegradation[];
}

/** Where the time went, for the Server-Timing header (filled in as the build runs). */
export interface ContextTimings {
  embedMs: number;
}

export async function buildContext(
  services: Services,
  tenantId: string,
  args: ContextArgs,
  timings: ContextTimings = { embedMs: 0 },
): Promise<ContextResult> {
  const empty = { markdown: "", tokens: 0, sections: { similarQuestions: [], memories: [] } };
  const classified = classifyQuery(args.prompt);
  if (classified.class === "trivial") return { class: "trivial", reason: classified.reason, isQuestion: false, ...empty, degraded: [] };

  const prompt = normalizeText(args.prompt, MAX_CONTEXT_PROMPT_CHARS).text;
  const degraded = new Set<ContextDegradation>();
  // Not awaited here: only the embedding needs the session's files, so the search starts its
  // lists that need no vector (full text, cards, settings) while they are read.
  const filesRead: Promise<string[]> = args.sessionId
    ? recentFileNames(services.db, tenantId, args.sessionId).catch(() => {
        degraded.add("session_files");
        return [];
      })
    : Promise.resolve([]);
  // Seed 001: the files enrich the embedding only. In the keyword query they would also count in
  // the keyword floor's denominator, and a session could make a keyword-only match disappear.
  const enrichedRead = filesRead.then((files) => enrichQuery(prompt, files));
  const embedDegraded: Degradation[] = [];
  // Not awaited here either: the search starts its lists that need no vector while the prompt embeds.
  const queryVector = enrichedRead.then(async (enriched) => {
    const embedStarted = performance.now();
    const vector = await embedQuery(services, enriched, embedDegraded);
    timings.embedMs = performance.now() - embedStarted;
    return vector;
  });
  // The prompt as sent: a question on its second line is still asked ("Good bank\nWhich bank…").
  const asked = informationNeed(args.prompt).need;

  // One search over every memory type serves both sections: a second search would repeat the
  // full-text query, the vector scan and the row reads.
  const found = await searchMemories(services, tenantId, {
    scope: args.scope,
    query: prompt,
    limit: CONTEXT_CANDIDATES,
    queryVector,
    minSimilarity: MIN_MEMORY_SIMILARITY,
    minKeywordCoverage: MIN_MEMORY_KEYWORD_COVERAGE,
  }).catch(() => {
    degraded.add("memories");
    return null;
  });
  await queryVector;
  const [files, enriched] = await Promise.all([filesRead, enrichedRead]);
  for (const d of [...embedDegraded, ...(found?.degraded ?? [])]) degraded.add(d);
  const hits = found?.results ?? [];

  const sections: ContextResult["sections"] = {
    // The caller's own session already holds its questions.
    similarQuestions: asked
      ? askedBefore(
          prompt,
          hits.filter(
            (m) => m.memoryType === "question" && (!args.sessionId || m.sessionId !== args.sessionId) && meetsFloor(m, QUESTION_FLOOR),
          ),
          services.embedder.scale,
        ).slice(0, SIMILAR_QUESTIONS_IN_CONTEXT)
      : [],
    memories: hits
      .filter((m) => m.memoryType !== "question")
      .slice(0, CONTEXT_MEMORIES)
      .map(({ id, content, memoryType, score, similarity, createdAt, endedAt }) => ({
        id,
        content,
        memoryType,
        score,
        similarity,
        createdAt,
        endedAt: endedAt === null ? null : new Date(endedAt).toISOString(),
      })),
  };
  const rendered = renderContext(sections, args.tokenBudget, lexicalTerms(prompt));
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
