/**
 * Memory search: a lexical list (D1 FTS5, BM25) and a vector list (the VectorIndex port), fused
 * by RRF. Either list may be missing — the embedder cannot embed the query's language, or it is
 * down — and the answer then says which part is `degraded` instead of failing.
 */
import type { MemoryType } from "../db/schema";
import { fuseRrf, type RankedList } from "../ranking/rrf";
import type { Services } from "../services";
import { ftsOrQuery } from "../text/fts";
import type { VectorMetadata } from "../vectors/port";
import { MEMORY_COLLECTION } from "./indexing";
import { getMemoriesByIds, type Memory, toMemory } from "./store";

export interface MemorySearchArgs {
  scope: string;
  query: string;
  limit: number;
  memoryTypes?: readonly MemoryType[] | undefined;
}

export interface MemoryHit extends Memory {
  score: number;
  /** The candidate lists that found this memory ("bm25", "vector"). */
  matchedBy: string[];
}

export type Degradation = "embeddings" | "vector_index";

export interface MemorySearchResult {
  results: MemoryHit[];
  degraded: Degradation[];
}

/** Candidates taken from each list: twice the page, at least this many, so fusion has room to reorder. */
export const MIN_CANDIDATE_WINDOW = 20;

export async function searchMemories(services: Services, tenantId: string, args: MemorySearchArgs): Promise<MemorySearchResult> {
  const window = Math.max(args.limit * 2, MIN_CANDIDATE_WINDOW);
  const degraded: Degradation[] = [];
  const [lexicalIds, vectorIds] = await Promise.all([
    lexicalCandidates(services.db, tenantId, args, window),
    vectorCandidates(services, tenantId, args, window, degraded),
  ]);
  const lists: RankedList[] = [{ name: "bm25", ids: lexicalIds, weight: 1 }];
  if (vectorIds) lists.push({ name: "vector", ids: vectorIds, weight: 1 });
  const fused = fuseRrf(lists);
  const rows = await getMemoriesByIds(
    services.db,
    tenantId,
    fused.map((hit) => hit.id),
  );
  const types = args.memoryTypes && new Set<string>(args.memoryTypes);
  const results: MemoryHit[] = [];
  for (const hit of fused) {
    const row = rows.get(hit.id);
    // The vector index may still hold a deleted row's vector, or another scope's: rows decide.
    if (!row || row.scope !== args.scope || (types && !types.has(row.memory_type))) continue;
    results.push({ ...toMemory(row), score: hit.score, matchedBy: hit.sources });
    if (results.length === args.limit) break;
  }
  return { results, degraded };
}

async function lexicalCandidates(db: D1Database, tenantId: string, args: MemorySearchArgs, window: number): Promise<string[]> {
  const match = ftsOrQuery(args.query);
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

function logDegraded(part: Degradation, error: unknown): void {
  console.warn(JSON.stringify({ event: "search_degraded", part, error: error instanceof Error ? error.message : String(error) }));
}
