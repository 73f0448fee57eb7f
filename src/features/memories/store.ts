/** Memories: what a user said or asked, kept per tenant and scope. Queries take (services, tenantId, args). */
import { deleteCardsOfMemory, storeCards } from "../cards/store";
import type { IndexState, MemoryType } from "../../platform/db/schema";
import { decidePair } from "../../core/scale/pair";
import { newId } from "../../core/base/ids";
import type { Services } from "../../platform/ports/services";
import { getTenantSettings } from "../settings/tenant";
import { extractCards } from "../../core/text/cards";
import { ftsDocument } from "../../core/text/fts";
import { indexMemories, MEMORY_COLLECTION } from "./indexing";
import { selectByIds } from "../../platform/db/by-ids";
import { errorFields } from "../../platform/observe/log";

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
 * The scope's questions nearest to a new one that are checked for "asked again": the nearest by
 * cosine is often a related question, and the same one asked again may stand second.
 */
export const QUESTION_DEDUPE_CANDIDATES = 3;

export interface StoredMemory {
  memory: Memory;
  /** False when the memory was a repeat of `memory` (a question asked again). */
  created: boolean;
}

/**
 * Commits the memory and its full-text row in one D1 batch (a transaction), then indexes its
 * vector. An indexing failure leaves the memory pending for the cron, never unsaved. A question
 * asked again is counted on the first one instead, but only when the same-question decision is
 * sure (src/core/decisions): merging a different question would lose it, storing a repeat costs a row.
 * `repeatCheck` is findRepeatedQuestion already started by a caller that runs it beside its own
 * reads (POST /v1/questions/similar: beside the search), so the write waits for one round trip less.
 */
export async function createMemory(
  services: Services,
  tenantId: string,
  input: NewMemory,
  repeatCheck: Promise<MemoryRow | null> = findRepeatedQuestion(services, tenantId, input),
): Promise<StoredMemory> {
  const { db, clock, embedder } = services;
  const now = clock.now();
  const state: IndexState = embedder.canEmbed(input.content) ? "pending" : "lexical_only";
  const repeat = await repeatCheck;
  if (repeat) {
    await db
      .prepare("UPDATE memories SET recall_count = recall_count + 1, last_recalled_at = ? WHERE id = ? AND tenant_id = ?")
      .bind(now, repeat.id, tenantId)
      .run();
    return { memory: { ...toMemory(repeat), recallCount: repeat.recall_count + 1 }, created: false };
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
  // The cards and the vector need only the committed row: written side by side.
  const [, indexed] = await Promise.all([
    extractAndStoreCards(services, row),
    state === "pending" ? indexMemories(services, [row]).then(([outcome]) => outcome ?? "pending") : null,
  ]);
  if (indexed) row.index_state = indexed;
  return { memory: toMemory(row), created: true };
}

/**
 * The scope's nearest earlier question that is surely the same question; null when none, when it
 * cannot be told, or when the new memory is not a question the model can embed.
 */
export async function findRepeatedQuestion(services: Services, tenantId: string, input: NewMemory): Promise<MemoryRow | null> {
  const { embedder, vectors, db } = services;
  if (input.memoryType !== "question" || !embedder.canEmbed(input.content)) return null;
  try {
    const [vector] = await embedder.embed([input.content]);
    const nearest = await vectors.query(tenantId, MEMORY_COLLECTION, {
      vector: vector!,
      model: embedder.model,
      topK: QUESTION_DEDUPE_CANDIDATES,
      filter: { scope: input.scope, memoryType: "question" },
    });
    if (nearest.length === 0) return null;
    const rows = await getMemoriesByIds(
      db,
      tenantId,
      nearest.map((n) => n.id),
    );
    const tables = embedder.scale;
    for (const { id, score } of nearest) {
      const row = rows.get(id);
      if (row && row.scope === input.scope && decidePair(input.content, row.content, score, tables).relation === "same") return row;
    }
    return null;
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
    // Most memories state no card: those need not read the settings at all.
    const extracted = extractCards(row.content);
    if (extracted.length === 0) return;
    const { cards: config } = await getTenantSettings(db, row.tenant_id);
    if (!config.enabled || !config.extractOnStore) return;
    const cards = extracted.filter((card) => card.confidence >= config.confidenceThreshold);
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

/**
 * The rows as getMemoriesByIds reads them, each with `ended_at`: when every card the memory gave
 * rise to was ended by a later statement ("I live in Austin", then "I left Austin"), the newest end;
 * null when a card of it is current, it gave no card, or it is itself the statement that ended one.
 * In the same query: the search reads its candidates' rows in one round trip.
 */
export function getMemoriesWithEnd(
  db: D1Database,
  tenantId: string,
  ids: readonly string[],
): Promise<Map<string, MemoryRow & { ended_at: number | null }>> {
  return selectByIds(
    db,
    {
      from: "memories",
      columns: MEMORY_COLUMNS,
      extraColumns: `(SELECT CASE WHEN COUNT(*) > 0 AND COUNT(c.superseded_at) = COUNT(*) AND SUM(c.version_relation = 'retracts') = 0 THEN MAX(c.superseded_at) END
        FROM memory_cards c WHERE c.source_memory_id = t.id AND c.tenant_id = t.tenant_id) AS ended_at`,
    },
    tenantId,
    ids,
  );
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
