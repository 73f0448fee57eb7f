/**
 * Re-tokenizes a tenant's full-text rows with the current segmentation (src/core/text/fts.ts), a page
 * at a time (POST /v1/admin/fts/rebuild). Needed once after the segmentation changes, e.g. when
 * Latin runs inside Chinese stopped being cut into letter bigrams ("我用iPhone手机" was indexed as
 * "ip ph ho on ne …", now "iphone"): SQL cannot run the segmenter, so a migration cannot do it.
 * Only rows whose stored text differs are written, so running it again rewrites nothing.
 */
import { ID_CHUNK } from "../../platform/db/by-ids";
import { ftsDocument } from "../../core/text/fts";

export const FTS_COLLECTIONS = ["memories", "faqs", "faq_variants"] as const;
export type FtsCollection = (typeof FTS_COLLECTIONS)[number];
/** Rows read per call: bounded so one call stays well inside a Worker's limits. */
export const MAX_FTS_REBUILD_BATCH = 500;

interface Source {
  select: string;
  fts: string;
  columns: readonly string[];
}

// Each source selects seq (the FTS rowid) and the document's text columns, in FTS column order.
const SOURCES: Record<FtsCollection, Source> = {
  memories: { select: "SELECT seq, content AS c0 FROM memories", fts: "memories_fts", columns: ["body"] },
  faqs: { select: "SELECT seq, question AS c0, answer AS c1 FROM faqs", fts: "faqs_fts", columns: ["question", "answer"] },
  faq_variants: { select: "SELECT seq, variant_text AS c0 FROM faq_variants", fts: "faq_variants_fts", columns: ["body"] },
};

export interface FtsRebuildPage {
  collection: FtsCollection;
  processed: number;
  rewritten: number;
  /** Pass back as `after` for the next page; null when every row has been read. */
  nextCursor: number | null;
}

export async function rebuildFts(
  db: D1Database,
  tenantId: string,
  collection: FtsCollection,
  after: number,
  batchSize: number,
): Promise<FtsRebuildPage> {
  const source = SOURCES[collection];
  const { results } = await db
    .prepare(`${source.select} WHERE tenant_id = ? AND seq > ? ORDER BY seq LIMIT ?`)
    .bind(tenantId, after, batchSize)
    .all<{ seq: number; c0: string; c1?: string }>();
  const seqs = results.map((r) => r.seq);
  const stored = new Map<number, string[]>();
  // A page is larger than D1's 100 bound parameters: its full-text rows are read in chunks, one round trip.
  const reads: D1PreparedStatement[] = [];
  for (let i = 0; i < seqs.length; i += ID_CHUNK) {
    const chunk = seqs.slice(i, i + ID_CHUNK);
    reads.push(
      db
        .prepare(`SELECT rowid AS seq, ${source.columns.join(", ")} FROM ${source.fts} WHERE rowid IN (${chunk.map(() => "?").join(",")})`)
        .bind(...chunk),
    );
  }
  for (const { results: rows } of reads.length > 0 ? await db.batch<Record<string, string | number>>(reads) : []) {
    for (const row of rows)
      stored.set(
        Number(row.seq),
        source.columns.map((col) => String(row[col] ?? "")),
      );
  }
  const updates: D1PreparedStatement[] = [];
  for (const row of results) {
    const current = stored.get(row.seq);
    if (!current) continue; // no full-text row (a deleted FAQ): nothing to re-tokenize
    const next = [row.c0, row.c1].slice(0, source.columns.length).map((text) => ftsDocument(text ?? ""));
    if (next.every((text, i) => text === current[i])) continue;
    updates.push(
      db.prepare(`UPDATE ${source.fts} SET ${source.columns.map((col) => `${col} = ?`).join(", ")} WHERE rowid = ?`).bind(...next, row.seq),
    );
  }
  if (updates.length > 0) await db.batch(updates);
  const last = results[results.length - 1];
  return {
    collection,
    processed: results.length,
    rewritten: updates.length,
    nextCursor: results.length === batchSize && last ? last.seq : null,
  };
}
