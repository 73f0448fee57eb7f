/**
 * The vector outbox. A row is committed to D1 first with index_state = 'pending'; its vector is
 * upserted after. A failure leaves the row pending (and searchable lexically); the every-5-minutes
 * cron retries it. Upserts are idempotent, so a row indexed twice (request and cron racing) is
 * harmless.
 */
import type { Services } from "../services";
import type { VectorMetadata } from "../vectors/port";

export interface OutboxRow {
  id: string;
  tenantId: string;
  /** The text whose embedding goes into the index. */
  text: string;
  metadata: VectorMetadata;
}

export type IndexOutcome = { ok: true; model: string } | { ok: false; error: string };

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
    for (const row of rows) outcomes.set(row.id, { ok: false, error: `embeddings: ${describe(error)}` });
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
      for (const { row } of items) outcomes.set(row.id, { ok: true, model: embedder.model });
    } catch (error) {
      for (const { row } of items) outcomes.set(row.id, { ok: false, error: `vector index: ${describe(error)}` });
    }
  }
  return outcomes;
}

function describe(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).slice(0, 500);
}
