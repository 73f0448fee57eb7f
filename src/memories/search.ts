/**
 * Memory search. Candidates come from three places — full text (D1 FTS5, BM25, over the
 * expanded query), vectors (the VectorIndex port), and memory cards answering the question's
 * type (a card's source memory) — and are fused by weighted RRF. A Recency question adds a
 * newest-first list. Any list may be missing — the embedder cannot embed the query's language,
 * or is down — and the answer then says what is `degraded` instead of failing.
 */
import { lookupCards } from "../cards/store";
import type { MemoryType } from "../db/schema";
import { cachedExpandQuery } from "../query/analyze";
import { fuseRrf, type RankedList } from "../ranking/rrf";
import type { Services } from "../services";
import { slotsForQuestion } from "../text/cards";
import { detectQuestionType } from "../text/question-type";
import type { VectorMetadata } from "../vectors/port";
import { MEMORY_COLLECTION } from "./indexing";
import { getMemoriesByIds, type Memory, type MemoryRow, toMemory } from "./store";

export interface MemorySearchArgs {
  scope: string;
  query: string;
  limit: number;
  memoryTypes?: readonly MemoryType[] | undefined;
}

export interface MemoryHit extends Memory {
  score: number;
  /** The candidate lists that found this memory ("bm25", "vector", "card", "recency"). */
  matchedBy: string[];
}

export type Degradation = "embeddings" | "vector_index" | "cards";

export interface MemorySearchResult {
  results: MemoryHit[];
  degraded: Degradation[];
}

/** Candidates taken from each list: twice the page, at least this many, so fusion has room to reorder. */
export const MIN_CANDIDATE_WINDOW = 20;
/** RRF weight of the full-text and vector lists. */
export const LIST_WEIGHT = 1;
/** RRF weight of memories whose card answers the question: above both other lists together at rank 1. */
export const CARD_WEIGHT = 2.5;
/** RRF weight of the newest-first list added for Recency questions. */
export const RECENCY_WEIGHT = 0.5;

export async function searchMemories(services: Services, tenantId: string, args: MemorySearchArgs): Promise<MemorySearchResult> {
  const window = Math.max(args.limit * 2, MIN_CANDIDATE_WINDOW);
  const degraded: Degradation[] = [];
  const questionType = detectQuestionType(args.query);
  const [lexicalIds, vectorIds, cardIds] = await Promise.all([
    lexicalCandidates(services, tenantId, args, window),
    vectorCandidates(services, tenantId, args, window, degraded),
    cardCandidates(services, tenantId, args, degraded),
  ]);
  const rows = await getMemoriesByIds(services.db, tenantId, [...new Set([...cardIds, ...lexicalIds, ...(vectorIds ?? [])])]);
  const types = args.memoryTypes && new Set<string>(args.memoryTypes);
  // The vector index may still hold a deleted row's vector, or another scope's: rows decide.
  const eligible = (id: string) => {
    const row = rows.get(id);
    return row !== undefined && row.scope === args.scope && (!types || types.has(row.memory_type));
  };
  const lists: RankedList[] = [
    { name: "card", ids: cardIds.filter(eligible), weight: CARD_WEIGHT },
    { name: "bm25", ids: lexicalIds.filter(eligible), weight: LIST_WEIGHT },
  ];
  if (vectorIds) lists.push({ name: "vector", ids: vectorIds.filter(eligible), weight: LIST_WEIGHT });
  if (questionType === "Recency") {
    const newestFirst = [...rows.values()].filter((r) => eligible(r.id)).sort((a, b) => b.created_at - a.created_at);
    lists.push({ name: "recency", ids: newestFirst.map((r) => r.id), weight: RECENCY_WEIGHT });
  }
  const results = fuseRrf(lists)
    .slice(0, args.limit)
    .map((hit) => ({ ...toMemory(rows.get(hit.id) as MemoryRow), score: hit.score, matchedBy: hit.sources }));
  return { results, degraded };
}

async function lexicalCandidates({ db, cache }: Services, tenantId: string, args: MemorySearchArgs, window: number): Promise<string[]> {
  const match = (await cachedExpandQuery(cache, args.query)).orQuery;
  if (!match) return [];
  const typeFilter = args.memoryTypes?.length ? `AND m.memory_type IN (${args.memoryTypes.map(() => "?").join(",")})` : "";
  const { results } = await db
    .prepare(
      `SELECT m.id FROM memories_fts JOIN memories m ON m.seq = memories_fts.rowid
       WHERE memories_fts MATCH ? AND m.tenant_id = ? AND m.scope = ? ${typeFilter}
       ORDER BY bm25(memories_fts) LIMIT ?`,
    )
    .bind(match, tenantId, args.scope, ...(args.memoryTypes ?? []), window)
    .all<{ id: string }>();
  return results.map((r) => r.id);
}

/** The vector list, or null when the query cannot be (or could not be) embedded. */
async function vectorCandidates(
  { embedder, vectors }: Services,
  tenantId: string,
  args: MemorySearchArgs,
  window: number,
  degraded: Degradation[],
): Promise<string[] | null> {
  if (!embedder.canEmbed(args.query)) return null;
  let vector: Float32Array;
  try {
    [vector] = (await embedder.embed([args.query])) as [Float32Array];
  } catch (error) {
    logDegraded("embeddings", error);
    degraded.push("embeddings");
    return null;
  }
  try {
    const filter: VectorMetadata = { scope: args.scope };
    if (args.memoryTypes?.length === 1) filter.memoryType = args.memoryTypes[0]!;
    const matches = await vectors.query(tenantId, MEMORY_COLLECTION, {
      vector,
      model: embedder.model,
      topK: Math.min(window, vectors.maxTopK),
      filter,
    });
    return matches.map((m) => m.id);
  } catch (error) {
    logDegraded("vector_index", error);
    degraded.push("vector_index");
    return null;
  }
}

/** Source memories of the current cards that answer the question (seed 003: O(1) card lookup first). */
async function cardCandidates({ db }: Services, tenantId: string, args: MemorySearchArgs, degraded: Degradation[]): Promise<string[]> {
  const slots = slotsForQuestion(args.query);
  if (slots.length === 0) return [];
  try {
    const cards = await lookupCards(db, tenantId, args.scope, "user", slots);
    return [...new Set(cards.map((c) => c.source_memory_id))];
  } catch (error) {
    logDegraded("cards", error);
    degraded.push("cards");
    return [];
  }
}

function logDegraded(part: Degradation, error: unknown): void {
  console.warn(JSON.stringify({ event: "search_degraded", part, error: error instanceof Error ? error.message : String(error) }));
}
