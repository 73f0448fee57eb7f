/**
 * Loads one (tenant, collection, model)'s snapshot for the exact index (src/adapters/vectors/exact-d1.ts).
 * D1 is the truth: the rows' ids, `updated_at` and metadata are listed first (a few bytes a row),
 * every row unchanged since the stored base (src/adapters/vectors/snapshot-base.ts) is copied from it, and
 * only the others are read from D1 with their vectors. When that was many rows, the loaded
 * snapshot becomes the new base, so the next isolate to start copies it too.
 */
import type { VectorMetadata } from "../../platform/ports/vector-index";
import { type BaseManifest, codeWords, PAGE_ROWS, pageCount } from "./packed";
import { baseIsCurrent, readManifest, readPages, writeBase } from "./snapshot-base";
import { VectorSnapshot, vectorBytes } from "./snapshot";
import { FIRST_ANSWER_MIN_ROWS } from "./first-answer";

/** A load that read at least this many vectors from D1 stores a new base. */
export const REBUILD_MIN_ROWS = 1024;
/** Ids listed, or vectors read, per D1 query (2,048 × 512-d ≈ 4 MB of hex). */
const READ_ROWS = 2048;
const LIST_ROWS = 10_000;
/** Base pages in memory at once during a load (≈ 17 MB at 512-d), beside the snapshot being filled. */
const PAGES_AT_ONCE = 4;

export interface LoadTarget {
  db: D1Database;
  /** Where bases are kept; null: every load reads D1 only. */
  kv: KVNamespace | null;
  tenantId: string;
  collection: string;
  model: string;
  dimensions: number;
}

interface ListedRow {
  id: string;
  updated_at: number;
  metadata: string;
}

/** What a load did, for tests and the benchmark. */
export interface LoadStats {
  fromBase: number;
  fromD1: number;
  rebuilt: boolean;
  /** Whether D1's rows were listed (false: the base was of the current version). */
  listed: boolean;
}

/**
 * A snapshot of the collection as of the version given, or null when it would take more than
 * `maxBytes` (the caller scans D1 directly then). `makeRoom(bytes)` is called before allocating.
 */
export async function loadSnapshot(
  target: LoadTarget,
  version: { epoch: string; counter: number; size?: number },
  maxBytes: number,
  makeRoom: (bytes: number) => void,
  /** The base's manifest when the caller started reading it already (beside the version check: one round trip less). */
  manifest?: Promise<Manifest | null>,
): Promise<{ snapshot: VectorSnapshot | null; stats: LoadStats }> {
  const { kv, tenantId, collection, model, dimensions } = target;
  const base = await (manifest ?? readBaseManifest(target));
  // Nothing written since the base was built: its own list of rows is D1's, no need to read it.
  const unchanged = base !== null && baseIsCurrent(base, version);
  // No base and a small collection: its rows with their vectors in one query, not a list and then the vectors.
  const whole = base === null && version.size !== undefined && version.size <= READ_ROWS ? await readAll(target) : null;
  const listed = unchanged ? rowsOf(base.manifest) : (whole ?? (await listRows(target)));
  const stats: LoadStats = { fromBase: 0, fromD1: 0, rebuilt: false, listed: !unchanged };
  const capacity = Math.max(64, listed.length);
  if (capacity * vectorBytes(dimensions) > maxBytes) return { snapshot: null, stats };
  makeRoom(capacity * vectorBytes(dimensions));
  const snapshot = new VectorSnapshot(dimensions, version.epoch, version.counter, capacity);
  /** The rows taken from the base. */
  const fromBase = new Set<string>();
  if (kv && base) {
    const current = new Map(listed.map((row) => [row.id, row]));
    const { ids, updatedAt: builtAt } = base.manifest;
    const words = codeWords(dimensions);
    for (let first = 0; first < pageCount(ids.length); first += PAGES_AT_ONCE) {
      const pages = await readPages(kv, base, first, Math.min(pageCount(ids.length), first + PAGES_AT_ONCE)).catch(() => null);
      if (!pages) break; // the rest of the rows come from D1
      for (const [p, page] of pages.entries()) {
        const start = (first + p) * PAGE_ROWS;
        if (unchanged) {
          // Every row of the base is current: the page is copied whole.
          const rows = ids.slice(start, start + page.rows);
          const metadata = base.manifest.metadata.slice(start, start + page.rows).map((m) => JSON.parse(m) as VectorMetadata);
          snapshot.appendPacked(rows, metadata, builtAt.slice(start, start + page.rows), page.vectors, page.codes);
          for (const id of rows) fromBase.add(id);
          stats.fromBase += page.rows;
          continue;
        }
        for (let r = 0; r < page.rows; r++) {
          const at = start + r;
          const row = current.get(ids[at]!);
          if (!row || row.updated_at !== builtAt[at]) continue;
          snapshot.upsertPacked(
            row.id,
            page.vectors.subarray(r * dimensions, (r + 1) * dimensions),
            page.codes.subarray(r * words, (r + 1) * words),
            JSON.parse(row.metadata) as VectorMetadata,
            row.updated_at,
          );
          fromBase.add(row.id);
          stats.fromBase++;
        }
      }
    }
  }
  const missing = stats.fromBase === 0 ? listed : listed.filter((row) => !fromBase.has(row.id));
  // The next chunk is asked for before this one is decoded, so D1's work overlaps ours.
  let pending = whole ? Promise.resolve(whole) : missing.length > 0 ? readVectors(target, missing.slice(0, READ_ROWS)) : null;
  for (let i = 0; pending; i += READ_ROWS) {
    const rows = await pending;
    pending = i + READ_ROWS < missing.length ? readVectors(target, missing.slice(i + READ_ROWS, i + 2 * READ_ROWS)) : null;
    for (const row of rows) {
      snapshot.upsert(row.id, decodeVector(row.vector), JSON.parse(row.metadata) as VectorMetadata, row.updated_at);
      stats.fromD1++;
    }
  }
  // A large collection's first answers need a base of the current version (first-answer.ts): a
  // stale one would make every new isolate list and read the rows changed since, however few.
  const staleForFirstAnswers = stats.listed && base !== null && snapshot.size >= FIRST_ANSWER_MIN_ROWS;
  if (kv && (stats.fromD1 >= REBUILD_MIN_ROWS || staleForFirstAnswers)) {
    // A base that fails to store costs the next isolate time, never an answer.
    stats.rebuilt = await writeBase(kv, tenantId, collection, model, snapshot).then(
      () => true,
      () => false,
    );
  }
  return { snapshot, stats };
}

type Manifest = Awaited<ReturnType<typeof readManifest>>;

/** The stored base's manifest, or null (no KV, no base, or a read that failed: then D1 alone serves). */
export function readBaseManifest({ kv, tenantId, collection, model, dimensions }: LoadTarget): Promise<Manifest | null> {
  return kv ? readManifest(kv, tenantId, collection, model, dimensions).catch(() => null) : Promise.resolve(null);
}

/** Every row of a collection with its vector, when it has at most READ_ROWS; null when it turned out to have more. */
async function readAll({ db, tenantId, collection, model }: LoadTarget): Promise<(ListedRow & { vector: string })[] | null> {
  const { results } = await db
    .prepare(
      `SELECT id, hex(vector) AS vector, updated_at, metadata FROM vectors WHERE tenant_id = ? AND collection = ? AND model = ? ORDER BY id LIMIT ${READ_ROWS + 1}`,
    )
    .bind(tenantId, collection, model)
    .all<ListedRow & { vector: string }>();
  return results.length <= READ_ROWS ? results : null;
}

function rowsOf(manifest: BaseManifest): ListedRow[] {
  return manifest.ids.map((id, i) => ({ id, updated_at: manifest.updatedAt[i]!, metadata: manifest.metadata[i]! }));
}

async function listRows({ db, tenantId, collection, model }: LoadTarget): Promise<ListedRow[]> {
  const rows: ListedRow[] = [];
  for (let after = ""; ;) {
    const { results } = await db
      .prepare(
        `SELECT id, updated_at, metadata FROM vectors WHERE tenant_id = ? AND collection = ? AND model = ? AND id > ? ORDER BY id LIMIT ${LIST_ROWS}`,
      )
      .bind(tenantId, collection, model, after)
      .all<ListedRow>();
    rows.push(...results);
    if (results.length < LIST_ROWS) return rows;
    after = results.at(-1)!.id;
  }
}

/** The listed rows' vectors (as they are now: metadata and updated_at are read again with them). */
async function readVectors({ db, tenantId, collection, model }: LoadTarget, rows: readonly ListedRow[]) {
  const { results } = await db
    .prepare(
      // CROSS JOIN: SQLite walks the ids and looks each row up by its key, instead of scanning the collection.
      `SELECT v.id, hex(v.vector) AS vector, v.updated_at, v.metadata FROM json_each(?4) AS j
       CROSS JOIN vectors AS v ON v.tenant_id = ?1 AND v.collection = ?2 AND v.id = j.value WHERE v.model = ?3`,
    )
    .bind(tenantId, collection, model, JSON.stringify(rows.map((r) => r.id)))
    .all<ListedRow & { vector: string }>();
  return results;
}

/**
 * Vectors are read as hex(vector): D1 hands a BLOB to the Worker as an array of byte values,
 * which costs about ten times more than a string to carry and decode (40k vectors: 9–16 s as
 * arrays, 1 s as hex, measured in Miniflare).
 */
export function decodeVector(hex: string): Float32Array {
  const bytes = new Uint8Array(hex.length >> 1);
  for (let i = 0, j = 0; i < bytes.length; i++, j += 2) bytes[i] = (HEX_VALUE[hex.charCodeAt(j)]! << 4) | HEX_VALUE[hex.charCodeAt(j + 1)]!;
  return new Float32Array(bytes.buffer);
}

const HEX_VALUE = (() => {
  const table = new Uint8Array(128);
  for (let i = 0; i < 16; i++) {
    table["0123456789ABCDEF".charCodeAt(i)] = i;
    table["0123456789abcdef".charCodeAt(i)] = i;
  }
  return table;
})();
