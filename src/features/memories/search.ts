/**
 * Memory search. Candidates are the UNION of three lists — full text (D1 FTS5 over the expanded
 * query), nearest vectors (the VectorIndex port), and the source memories of cards that answer
 * the question's type — so a keyword-only hit is never dropped for missing the vector top-k.
 * Each candidate is then scored by the weighted hybrid score of seed 000 (src/core/ranking/hybrid.ts);
 * candidates the vector list did not reach get their cosine from the index too. Any part may be
 * missing — the embedder cannot embed the query's language, or it is down — and the answer then
 * says what is `degraded` instead of failing.
 */
import { calibrate } from "../../core/calibration/calibration";
import { type CardRow, lookupCards } from "../cards/store";
import type { MemoryType } from "../../platform/db/schema";
import { DEFAULT_HYBRID_WEIGHTS, type HybridCandidate, type HybridWeights, rankHybrid } from "../../core/ranking/hybrid";
import type { Services } from "../../platform/ports/services";
import { DEFAULT_TENANT_SETTINGS, getTenantSettings, type TenantSettings } from "../settings/tenant";
import { slotsForQuestion } from "../../core/text/cards";
import { keywordCoverage, keywordUnits } from "../../core/text/coverage";
import { expandQuery } from "../../core/text/expand";
import { allTermsExpression, segment } from "../../core/text/fts";
import type { QuestionType } from "../../core/text/question-patterns";
import { detectQuestionType, underlyingQuestionType } from "../../core/text/question-type";
import type { VectorMetadata } from "../../platform/ports/vector-index";
import { MEMORY_COLLECTION } from "./indexing";
import { getMemoriesWithEnd, type Memory, toMemory } from "./store";
import { errorFields } from "../../platform/observe/log";

export interface MemorySearchArgs {
  scope: string;
  query: string;
  limit: number;
  memoryTypes?: readonly MemoryType[] | undefined;
  /** Leave out memories recorded in this session (the caller's conversation already has them). */
  excludeSessionId?: string | undefined;
  /** The text to embed, when it differs from `query` (an enriched query); the query is embedded otherwise. */
  embedText?: string | undefined;
  /** A query vector already computed (or being computed) for `embedText ?? query`, or null when it could not be. */
  queryVector?: Float32Array | null | Promise<Float32Array | null> | undefined;
  /**
   * The floor of the similar-question and context paths (meetsFloor): keep only candidates found
   * by an answering card, with a calibrated similarity at least this, or by keyword with a
   * keywordCoverage of at least `minKeywordCoverage`. Unset (memory search): no floor.
   */
  minSimilarity?: number | undefined;
  /** With minSimilarity: the keyword floor; MIN_KEYWORD_COVERAGE by default. */
  minKeywordCoverage?: number | undefined;
  weights?: Partial<HybridWeights> | undefined;
  /** The tenant's settings when the caller has them; read from D1 otherwise. */
  settings?: TenantSettings | undefined;
}

export interface MemoryHit extends Memory {
  score: number;
  /** Calibrated similarity to the query (see src/core/calibration), null when no vector was compared. */
  similarity: number | null;
  rawCosine: number | null;
  /** The candidate lists that found this memory ("bm25", "vector", "card"). */
  matchedBy: string[];
  /** Share of the query's content terms the memory contains (src/core/text/coverage.ts); null when not found by keyword. */
  keywordCoverage: number | null;
  /** When a later statement ended every fact this memory stated ("I left Austin" after "I live in Austin"); null while it holds. */
  endedAt: number | null;
}

export interface Floor {
  similarity: number;
  keywordCoverage: number;
}

/**
 * A hit is worth showing when a card that answers the question found it, its calibrated
 * similarity reaches the floor, or it was found by keyword and says enough of the query.
 */
export function meetsFloor(hit: Pick<MemoryHit, "matchedBy" | "similarity" | "keywordCoverage">, floor: Floor): boolean {
  return hit.matchedBy.includes("card") || (hit.similarity ?? 0) >= floor.similarity || (hit.keywordCoverage ?? 0) >= floor.keywordCoverage;
}

export type Degradation = "embeddings" | "vector_index" | "cards";

export interface MemorySearchResult {
  results: MemoryHit[];
  degraded: Degradation[];
}

/** Candidates taken from each list: twice the page, at least this many. */
export const MIN_CANDIDATE_WINDOW = 20;
/** Added to the score of a memory whose card answers the question (seed 003: cards first), in units of the relevance weight (rankHybrid). */
export const CARD_BONUS = 0.5;
/**
 * Where a floor applies (minSimilarity), a memory found only by keyword must contain at least this
 * share of the query's content terms (src/core/text/coverage.ts): "What are best practices for state
 * management?" shares 1 of 4 with "What's the best way to deploy on Vercel?" and is not similar.
 */
export const MIN_KEYWORD_COVERAGE = 0.5;
/** A Recency question ("what is my current …") multiplies the recency weight by this. */
export const RECENCY_QUESTION_FACTOR = 2.5;

export async function searchMemories(services: Services, tenantId: string, args: MemorySearchArgs): Promise<MemorySearchResult> {
  const { db, embedder, clock } = services;
  const window = Math.max(args.limit * 2, MIN_CANDIDATE_WINDOW);
  const degraded: Degradation[] = [];
  // Everything that needs no vector (settings, full text, cards, the vector index's set-up) runs
  // while the query embeds, and none of it waits for the settings: the full-text and card reads
  // start at once as the default settings would have them, and only a tenant whose settings
  // change them pays a second full-text read (docs/design/round-trips.md).
  const settingsRead = args.settings ? Promise.resolve(args.settings) : getTenantSettings(db, tenantId);
  const vectorReady =
    args.queryVector !== undefined ? Promise.resolve(args.queryVector) : embedQuery(services, args.embedText ?? args.query, degraded);
  services.vectors.prefetch?.(tenantId, [MEMORY_COLLECTION]);
  const expansionGuess = (args.settings ?? DEFAULT_TENANT_SETTINGS).query.expansion;
  const lexicalGuess = lexicalCandidates(services, tenantId, args, window, expansionGuess);
  // Unused when the settings differ from the guess: its failure then matters to nobody.
  lexicalGuess.catch(() => {});
  const cardsRead = readCards(services, tenantId, args);
  const [settings, queryVector, lexical, nearest, cardIds] = await Promise.all([
    settingsRead,
    vectorReady,
    settingsRead.then((s) =>
      s.query.expansion === expansionGuess ? lexicalGuess : lexicalCandidates(services, tenantId, args, window, s.query.expansion),
    ),
    vectorReady.then((v) => (v ? vectorCandidates(services, tenantId, args, v, window, degraded) : null)),
    settingsRead.then((s) => cardCandidates(services, cardsRead, degraded, s)),
  ]);
  const questionType: QuestionType = settings.query.questionTypeDetection ? detectQuestionType(args.query) : "Generic";

  const ids = [...new Set([...cardIds, ...(lexical?.keys() ?? []), ...(nearest?.keys() ?? [])])];
  // Candidates the vector list did not reach get their cosine from the index too. Asked for beside
  // their rows (which decide who is eligible), not after them: on Vectorize it is a round trip of
  // its own (getByIds). Only the eligible, indexed ones' scores are used, as if asked for alone.
  const unreached = queryVector && nearest ? ids.filter((id) => !nearest.has(id)) : [];
  const [rows, more] = await Promise.all([
    getMemoriesWithEnd(db, tenantId, ids),
    unreached.length > 0
      ? services.vectors
          .similarities(tenantId, MEMORY_COLLECTION, { vector: queryVector!, model: embedder.model }, unreached)
          .catch((error: unknown) => ({ failed: error }))
      : null,
  ]);
  const types = args.memoryTypes && new Set<string>(args.memoryTypes);
  const eligible = [...rows.values()].filter(
    // The vector index may still hold a deleted row's vector, or another scope's: rows decide.
    (row) =>
      row.scope === args.scope &&
      (!types || types.has(row.memory_type)) &&
      (!args.excludeSessionId || row.session_id !== args.excludeSessionId),
  );

  const cosines = new Map(nearest ?? []);
  const unscored = eligible.filter((row) => !cosines.has(row.id) && row.index_state === "indexed").map((row) => row.id);
  if (more && unscored.length > 0) {
    if ("failed" in more) logDegraded(services, "vector_index", more.failed);
    else
      for (const id of unscored) {
        const score = more.get(id);
        if (score !== undefined) cosines.set(id, score);
      }
  }

  const cards = new Set(cardIds);
  const candidates: HybridCandidate[] = eligible.map((row) => ({
    id: row.id,
    vector: cosines.get(row.id) ?? null,
    bm25: lexical?.get(row.id) ?? null,
    createdAt: row.created_at,
    recallCount: row.recall_count,
    importance: row.importance,
    // A fact a later statement ended ranks as far below as an answering card ranks above (seed 003: cards never forget, but the past is not the answer).
    bonus: (cards.has(row.id) ? CARD_BONUS : 0) - (row.ended_at !== null ? CARD_BONUS : 0),
  }));
  const weights = { ...DEFAULT_HYBRID_WEIGHTS, ...args.weights };
  if (questionType === "Recency") weights.recency *= RECENCY_QUESTION_FACTOR;
  const units = keywordUnits(settings.query.expansion ? expandQuery(args.query) : { keywords: segment(args.query) });
  const ranked = rankHybrid(candidates, { now: clock.now(), weights, available: { vector: nearest !== null, text: lexical !== null } });

  const results: MemoryHit[] = [];
  for (const { id, score } of ranked) {
    const row = rows.get(id)!;
    const rawCosine = cosines.get(id) ?? null;
    const similarity = rawCosine === null ? null : calibrate(rawCosine, embedder.scale.calibration);
    const matchedBy = [cards.has(id) && "card", lexical?.has(id) && "bm25", nearest?.has(id) && "vector"].filter((x): x is string => !!x);
    const coverage = lexical?.has(id) ? keywordCoverage(units, row.content) : null;
    const hit = { similarity, matchedBy, keywordCoverage: coverage };
    if (
      args.minSimilarity !== undefined &&
      !meetsFloor(hit, { similarity: args.minSimilarity, keywordCoverage: args.minKeywordCoverage ?? MIN_KEYWORD_COVERAGE })
    )
      continue;
    results.push({ ...toMemory(row), score, rawCosine, ...hit, endedAt: row.ended_at });
    if (results.length === args.limit) break;
  }
  return { results, degraded };
}

/** Embeds the query text; null (and `degraded`) when the model cannot embed it or is down. */
export async function embedQuery(services: Services, text: string, degraded: Degradation[]): Promise<Float32Array | null> {
  if (!services.embedder.canEmbed(text)) return null;
  try {
    const [vector] = await services.embedder.embed([text]);
    return vector ?? null;
  } catch (error) {
    logDegraded(services, "embeddings", error);
    degraded.push("embeddings");
    return null;
  }
}

/** id → bm25 of the full-text matches, or null when the query has no content word. */
async function lexicalCandidates({ db }: Services, tenantId: string, args: MemorySearchArgs, window: number, expansion: boolean) {
  // Computed, not read from the KV expansion cache: the rules take microseconds, a KV round trip milliseconds.
  // Expansion off (a tenant setting): the query's own terms, every one required.
  const match = expansion ? expandQuery(args.query).orQuery : allTermsExpression(segment(args.query));
  if (!match) return null;
  const typeFilter = args.memoryTypes?.length ? `AND m.memory_type IN (${args.memoryTypes.map(() => "?").join(",")})` : "";
  const { results } = await db
    .prepare(
      `SELECT m.id, bm25(memories_fts) AS rank FROM memories_fts JOIN memories m ON m.seq = memories_fts.rowid
       WHERE memories_fts MATCH ? AND m.tenant_id = ? AND m.scope = ? ${typeFilter}
       ORDER BY rank LIMIT ?`,
    )
    .bind(match, tenantId, args.scope, ...(args.memoryTypes ?? []), window)
    .all<{ id: string; rank: number }>();
  return new Map(results.map((r) => [r.id, r.rank]));
}

/** id → cosine of the nearest vectors, or null when the index could not be queried. */
async function vectorCandidates(
  { embedder, vectors, log }: Services,
  tenantId: string,
  args: MemorySearchArgs,
  vector: Float32Array,
  window: number,
  degraded: Degradation[],
): Promise<Map<string, number> | null> {
  try {
    const filter: VectorMetadata = { scope: args.scope };
    if (args.memoryTypes?.length === 1) filter.memoryType = args.memoryTypes[0]!;
    const matches = await vectors.query(tenantId, MEMORY_COLLECTION, {
      vector,
      model: embedder.model,
      topK: Math.min(window, vectors.maxTopK),
      filter,
    });
    return new Map(matches.map((m) => [m.id, m.score]));
  } catch (error) {
    logDegraded({ log }, "vector_index", error);
    degraded.push("vector_index");
    return null;
  }
}

/**
 * The current cards of the slots the question asks about, read before the tenant's settings are
 * known (cardCandidates decides whether they count): null when the question asks no slot, the
 * error when the read failed.
 */
function readCards({ db }: Services, tenantId: string, args: MemorySearchArgs): Promise<CardRow[] | Error> | null {
  const slots = slotsForQuestion(args.query, underlyingQuestionType(args.query));
  if (slots.length === 0) return null;
  return lookupCards(db, tenantId, args.scope, "user", slots).catch((error: unknown) =>
    error instanceof Error ? error : new Error(String(error)),
  );
}

/**
 * Source memories of the current cards that answer the question (seed 003: O(1) card lookup
 * first). None when the tenant turned cards or question-type detection off; cards under the
 * tenant's confidence threshold (stored before it was raised) are not used.
 */
async function cardCandidates(
  { log }: Services,
  cardsRead: Promise<CardRow[] | Error> | null,
  degraded: Degradation[],
  settings: TenantSettings,
): Promise<string[]> {
  if (!settings.cards.enabled || !settings.query.questionTypeDetection || !cardsRead) return [];
  const cards = await cardsRead;
  if (cards instanceof Error) {
    logDegraded({ log }, "cards", cards);
    degraded.push("cards");
    return [];
  }
  return [...new Set(cards.filter((c) => c.confidence >= settings.cards.confidenceThreshold).map((c) => c.source_memory_id))];
}

function logDegraded({ log }: Pick<Services, "log">, part: Degradation, error: unknown): void {
  log.warn("search_degraded", { part, ...errorFields(error) });
}
