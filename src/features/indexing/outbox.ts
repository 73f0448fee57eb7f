/**
 * The vector outbox. A row is committed to D1 first with index_state = 'pending'; its vector is
 * upserted after. A failure leaves the row pending (and searchable lexically); the every-5-minutes
 * cron retries it. Upserts are idempotent, so a row indexed twice (request and cron racing) is
 * harmless.
 */
import { and, eq, inArray, sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import { faqs, faqVariants, type IndexState, memories } from "../../platform/db/schema";
import { ID_CHUNK } from "../../platform/db/by-ids";
import type { Services } from "../../platform/ports/services";
import type { VectorMetadata } from "../../platform/ports/vector-index";
import { err, ok, type Result } from "../../core/base/result";

export interface OutboxRow {
  id: string;
  tenantId: string;
  /** The text whose embedding goes into the index. */
  text: string;
  metadata: VectorMetadata;
}

/** The model that made the row's vector, or why it has none. */
export type IndexOutcome = Result<{ model: string }, string>;

/** Rows the cron re-indexes per run and table: one embedding batch, bounded so a run stays short. */
export const REINDEX_BATCH_SIZE = 64;
/** After this many failed attempts a row is marked 'failed' (still searchable lexically) and left for an operator. */
export const MAX_INDEX_ATTEMPTS = 10;

/** The tables whose rows go through the outbox; each has index_state, index_attempts, index_error, embedding_model. */
export type OutboxTable = "memories" | "faqs" | "faq_variants";
const OUTBOX_TABLES = { memories, faqs, faq_variants: faqVariants } as const;

/** Embeds the rows in one batch and upserts them, per tenant. Never throws: outcomes say what happened. */
export async function indexRows(
  { embedder, vectors }: Pick<Services, "embedder" | "vectors">,
  collection: string,
  rows: readonly OutboxRow[],
): Promise<Map<string, IndexOutcome>> {
  const outcomes = new Map<string, IndexOutcome>();
  if (rows.length === 0) return outcomes;
  let embedded: Float32Array[];
  try {
    embedded = await embedder.embed(rows.map((r) => r.text));
  } catch (error) {
    for (const row of rows) outcomes.set(row.id, err(`embeddings: ${describe(error)}`));
    return outcomes;
  }
  const byTenant = new Map<string, { row: OutboxRow; vector: Float32Array }[]>();
  rows.forEach((row, i) => {
    const items = byTenant.get(row.tenantId) ?? [];
    items.push({ row, vector: embedded[i]! });
    byTenant.set(row.tenantId, items);
  });
  for (const [tenantId, items] of byTenant) {
    try {
      await vectors.upsert(
        tenantId,
        collection,
        items.map(({ row, vector }) => ({ id: row.id, vector, model: embedder.model, metadata: row.metadata })),
      );
      for (const { row } of items) outcomes.set(row.id, ok({ model: embedder.model }));
    } catch (error) {
      for (const { row } of items) outcomes.set(row.id, err(`vector index: ${describe(error)}`));
    }
  }
  return outcomes;
}

function describe(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).slice(0, 500);
}

/**
 * Records each row's outcome on the row: 'indexed' with the model that made its vector, or one
 * more failed attempt ('failed' after MAX_INDEX_ATTEMPTS). Only rows still 'pending' change, so a
 * row deleted or re-queued meanwhile is left alone. Returns the new states, in order of `ids`.
 */
export async function recordIndexOutcomes(
  db: D1Database,
  tableName: OutboxTable,
  ids: readonly string[],
  outcomes: Map<string, IndexOutcome>,
): Promise<IndexState[]> {
  const table = OUTBOX_TABLES[tableName];
  const orm = drizzle(db);
  // Rows with the same outcome (the model, or the error) share one update per chunk of ids: an
  // import of 4,000 rows writes a few dozen statements, not 4,000.
  const groups = new Map<string, { outcome: IndexOutcome | undefined; ids: string[] }>();
  const states = ids.map((id): IndexState => {
    const outcome = outcomes.get(id);
    const key = outcome?.ok ? `ok:${outcome.value.model}` : `error:${outcome?.error ?? ""}`;
    const group = groups.get(key) ?? { outcome, ids: [] };
    group.ids.push(id);
    groups.set(key, group);
    return outcome?.ok ? "indexed" : "pending";
  });
  const updates = [...groups.values()].flatMap(({ outcome, ids: groupIds }) =>
    chunks(groupIds, ID_CHUNK).map((chunk) => {
      const stillPending = and(inArray(table.id, chunk), eq(table.indexState, "pending"));
      if (outcome?.ok)
        return orm.update(table).set({ indexState: "indexed", embeddingModel: outcome.value.model, indexError: null }).where(stillPending);
      return orm
        .update(table)
        .set({
          indexAttempts: sql`${table.indexAttempts} + 1`,
          indexError: outcome?.ok === false ? outcome.error : "not indexed",
          indexState: sql`CASE WHEN ${table.indexAttempts} + 1 >= ${MAX_INDEX_ATTEMPTS} THEN 'failed' ELSE ${table.indexState} END`,
        })
        .where(stillPending);
    }),
  );
  // D1 runs at most 100 statements per batch.
  for (let i = 0; i < updates.length; i += 100) {
    const [first, ...rest] = updates.slice(i, i + 100);
    if (first) await orm.batch([first, ...rest]);
  }
  return states;
}

function chunks<T>(items: readonly T[], size: number): T[][] {
  return Array.from({ length: Math.ceil(items.length / size) }, (_, i) => items.slice(i * size, (i + 1) * size));
}
