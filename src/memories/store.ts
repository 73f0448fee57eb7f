/** Memories: what a user said or asked, kept per tenant and scope. Queries take (services, tenantId, args). */
import { calibrate } from "../calibration/calibration";
import { deleteCardsOfMemory, storeCards } from "../cards/store";
import type { IndexState, MemoryType } from "../db/schema";
import { newId } from "../ids";
import { lexicalSimilarity, lexicalTerms } from "../ranking/lexical";
import type { Services } from "../services";
import { getTenantSettings } from "../settings/tenant";
import { extractCards } from "../text/cards";
import { ftsDocument } from "../text/fts";
import { indexMemories, MEMORY_COLLECTION } from "./indexing";
import { selectByIds } from "../db/by-ids";
import { errorFields } from "../log";

export interface NewMemory {
  scope: string;
  content: string;
  memoryType: MemoryType;
  category?: string | undefined;
  importance: number;
  tags: string[];
  sessionId?: string | undefined;
}

export interface Memory {
  id: string;
  scope: string;
  content: string;
  memoryType: MemoryType;
  category: string | null;
  importance: number;
  tags: string[];
  sessionId: string | null;
  createdAt: string;
  indexState: IndexState;
  recallCount: number;
}

export interface MemoryRow {
  id: string;
  tenant_id: string;
  scope: string;
  content: string;
  memory_type: MemoryType;
  category: string | null;
  importance: number;
  tags: string;
  session_id: string | null;
  created_at: number;
  index_state: IndexState;
  recall_count: number;
}

export const MEMORY_COLUMNS =
  "id, tenant_id, scope, content, memory_type, category, importance, tags, session_id, created_at, index_state, recall_count";

export function toMemory(row: MemoryRow): Memory {
  return {
    id: row.id,
    scope: row.scope,
    content: row.content,
    memoryType: row.memory_type,
    category: row.category,
    importance: row.importance,
    tags: JSON.parse(row.tags) as string[],
    sessionId: row.session_id,
    createdAt: new Date(row.created_at).toISOString(),
    indexState: row.index_state,
    recallCount: row.recall_count,
  };
}

/**
 * A question at least this similar (calibrated, src/calibration) to one already asked in the
 * scope is the same question asked again: its count goes up instead of a near-duplicate row…
 */
export const QUESTION_DEDUPE_SIMILARITY = 0.85;
/**
 * …provided the two also share most of their content words (Ochiai, src/ranking/lexical.ts).
 * A single embedding model can rate a different question on the same subject very close (the
 * local model gives "How do I read a JSON file in Node.js?" / "How do I write a CSV file in
 * Node.js?" 0.90), and merging those would lose the new question.
 */
export const QUESTION_DEDUPE_SHARED_WORDS = 0.6;

export interface StoredMemory {
  memory: Memory;
  /** False when the memory was a repeat of `memory` (a question asked again). */
  created: boolean;
}

/**
 * Commits the memory and its full-text row in one D1 batch (a transaction), then indexes its
 * vector. An indexing failure leaves the memory pending for the cron, never unsaved. A question
 * asked again is counted on the first one instead (QUESTION_DEDUPE_SIMILARITY).
 */
export async function createMemory(services: Services, tenantId: string, input: NewMemory): Promise<StoredMemory> {
  const { db, clock, embedder } = services;
  const now = clock.now();
  const state: IndexState = embedder.canEmbed(input.content) ? "pending" : "lexical_only";
  if (input.memoryType === "question" && state === "pending") {
    const repeat = await findRepeatedQuestion(services, tenantId, input);
    if (repeat) {
      await db
        .prepare("UPDATE memories SET recall_count = recall_count + 1, last_recalled_at = ? WHERE id = ? AND tenant_id = ?")
        .bind(now, repeat.id, tenantId)
        .run();
      return { memory: { ...toMemory(repeat), recallCount: repeat.recall_count + 1 }, created: false };
    }
  }
  const id = newId("mem");
  await db.batch([
    db
      .prepare(
        `INSERT INTO memories (id, tenant_id, scope, content, memory_type, category, importance, tags, session_id,
           created_at, updated_at, index_state)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .bind(
        id,
        tenantId,
        input.scope,
        input.content,
        input.memoryType,
        input.category ?? null,
        input.importance,
        JSON.stringify(input.tags),
        input.sessionId ?? null,
        now,
        now,
        state,
      ),
    db.prepare("INSERT INTO memories_fts (rowid, body) SELECT seq, ? FROM memories WHERE id = ?").bind(ftsDocument(input.content), id),
  ]);
  const row: MemoryRow = {
    id,
    tenant_id: tenantId,
    scope: input.scope,
    content: input.content,
    memory_type: input.memoryType,
    category: input.category ?? null,
    importance: input.importance,
    tags: JSON.stringify(input.tags),
    session_id: input.sessionId ?? null,
    created_at: now,
    index_state: state,
    recall_count: 0,
  };
  await extractAndStoreCards(services, row);
  if (state === "pending") {
    const [outcome] = await indexMemories(services, [row]);
    row.index_state = outcome ?? "pending";
  }
  return { memory: toMemory(row), created: true };
}

/** The scope's closest earlier question if it is the same question; null when none, or when it cannot be told. */
async function findRepeatedQuestion(services: Services, tenantId: string, input: NewMemory): Promise<MemoryRow | null> {
  const { embedder, vectors, db } = services;
  try {
    const [vector] = await embedder.embed([input.content]);
    const [closest] = await vectors.query(tenantId, MEMORY_COLLECTION, {
      vector: vector!,
      model: embedder.model,
      topK: 1,
      filter: { scope: input.scope, memoryType: "question" },
    });
    if (!closest || calibrate(closest.score, embedder.calibration) < QUESTION_DEDUPE_SIMILARITY) return null;
    const row = (await getMemoriesByIds(db, tenantId, [closest.id])).get(closest.id);
    if (!row || row.scope !== input.scope) return null;
    return lexicalSimilarity(lexicalTerms(row.content), lexicalTerms(input.content)) >= QUESTION_DEDUPE_SHARED_WORDS ? row : null;
  } catch {
    // Dedupe is an optimisation: when the embedder or index is down, store the question as new.
    return null;
  }
}

/** The statements that count a recall (the memory was surfaced into a caller's context) for the frequency signal. */
export function recallStatements(db: D1Database, tenantId: string, ids: readonly string[], now: number): D1PreparedStatement[] {
  return ids.map((id) =>
    db
      .prepare("UPDATE memories SET recall_count = recall_count + 1, last_recalled_at = ? WHERE id = ? AND tenant_id = ?")
      .bind(now, id, tenantId),
  );
}

/**
 * Cards are derived data: a failure here is logged and leaves the memory stored; the card
 * backfill (POST /v1/admin/cards/backfill) repairs it.
 */
async function extractAndStoreCards({ db, log }: Services, row: MemoryRow): Promise<void> {
  try {
    const { cards: config } = await getTenantSettings(db, row.tenant_id);
    if (!config.enabled || !config.extractOnStore) return;
    const cards = extractCards(row.content).filter((card) => card.confidence >= config.confidenceThreshold);
    if (cards.length === 0) return;
    await storeCards(db, { tenantId: row.tenant_id, scope: row.scope, memoryId: row.id, createdAt: row.created_at }, cards);
  } catch (error) {
    log.warn("cards_store_failed", { memoryId: row.id, ...errorFields(error) });
  }
}

export async function getMemory(db: D1Database, tenantId: string, id: string): Promise<Memory | null> {
  const row = await db
    .prepare(`SELECT ${MEMORY_COLUMNS} FROM memories WHERE id = ? AND tenant_id = ?`)
    .bind(id, tenantId)
    .first<MemoryRow>();
  return row ? toMemory(row) : null;
}

/** Loads memories by id within one tenant, keyed by id (ids of other tenants are simply absent). */
export function getMemoriesByIds(db: D1Database, tenantId: string, ids: readonly string[]): Promise<Map<string, MemoryRow>> {
  return selectByIds<MemoryRow>(db, { from: "memories", columns: MEMORY_COLUMNS }, tenantId, ids);
}

/** Deletes the memory, its full-text row and its vector; false when the tenant has no such memory. */
export async function deleteMemory(services: Services, tenantId: string, id: string): Promise<boolean> {
  const { db, vectors } = services;
  const [, rowDelete] = await db.batch([
    db.prepare("DELETE FROM memories_fts WHERE rowid = (SELECT seq FROM memories WHERE id = ? AND tenant_id = ?)").bind(id, tenantId),
    db.prepare("DELETE FROM memories WHERE id = ? AND tenant_id = ?").bind(id, tenantId),
  ]);
  if ((rowDelete?.meta.changes ?? 0) === 0) return false;
  await deleteCardsOfMemory(db, tenantId, id);
  // The row is gone, so a stale vector can no longer surface (search joins vectors to rows);
  // deleting it is cleanup, and a failure here is not the caller's problem.
  await vectors.delete(tenantId, MEMORY_COLLECTION, [id]).catch((error) => {
    services.log.warn("vector_delete_failed", { id, ...errorFields(error) });
  });
  return true;
}
