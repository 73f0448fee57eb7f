/**
 * Similar questions (seed 000): the scope's earlier questions closest to a new one. Each is decided
 * against the new question (src/core/decisions): an unrelated one is never shown, and each shown one
 * says whether it is the same question or a related one.
 */
import type { Scale } from "../../core/scale/scale";
import { decidePair } from "../../core/scale/pair";
import type { Relation } from "../../core/decisions/same-question";
import { type Degradation, type MemoryHit, searchMemories } from "../memories/search";
import type { Services } from "../../platform/ports/services";

/** Seed 000 returns the top 3. */
export const DEFAULT_SIMILAR_QUESTIONS = 3;
/**
 * A question found only by its vector must be at least this similar (calibrated) to count as
 * "similar"; one that shares keywords with the new question counts anyway.
 */
export const MIN_SIMILAR_QUESTION_SIMILARITY = 0.6;

export interface SimilarQuestion {
  id: string;
  content: string;
  /** "Category: …" as the seed's context block shows it, or null. */
  context: string | null;
  category: string | null;
  score: number;
  similarity: number | null;
  rawCosine: number | null;
  /** The same question asked before, or a related one (never `different`: those are not shown). */
  relation: Exclude<Relation, "different">;
  /** Why, as a person reads it ("same question, score 0.97", "differs: e500 ≠ e501"). */
  reason: string;
  createdAt: string;
}

export interface SimilarQuestionsArgs {
  scope: string;
  text: string;
  limit: number;
  excludeSessionId?: string | undefined;
  embedText?: string | undefined;
  queryVector?: Float32Array | null | undefined;
}

export async function findSimilarQuestions(
  services: Services,
  tenantId: string,
  args: SimilarQuestionsArgs,
): Promise<{ questions: SimilarQuestion[]; degraded: Degradation[] }> {
  const { results, degraded } = await searchMemories(services, tenantId, {
    scope: args.scope,
    query: args.text,
    limit: args.limit,
    memoryTypes: ["question"],
    excludeSessionId: args.excludeSessionId,
    embedText: args.embedText,
    queryVector: args.queryVector,
    minSimilarity: MIN_SIMILAR_QUESTION_SIMILARITY,
  });
  return { questions: askedBefore(args.text, results, services.embedder.scale), degraded };
}

/** The hits that were asked before as the same or a related question, in their order; unrelated ones left out. */
export function askedBefore(question: string, hits: readonly MemoryHit[], tables: Scale): SimilarQuestion[] {
  return hits.flatMap((m) => {
    const { relation, reason } = decidePair(question, m.content, m.rawCosine, tables);
    if (relation === "different") return [];
    return [
      {
        id: m.id,
        content: m.content,
        context: m.category ? `Category: ${m.category}` : null,
        category: m.category,
        score: m.score,
        similarity: m.similarity,
        rawCosine: m.rawCosine,
        relation,
        reason,
        createdAt: m.createdAt,
      },
    ];
  });
}
