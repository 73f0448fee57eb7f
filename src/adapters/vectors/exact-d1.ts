/**
 * Exact cosine scan over float32 vectors stored in D1 (table `vectors`). Every write is visible
 * to the next query, results are exact, and it needs nothing remote: the local default, the test
 * index, and fine for small deployments (see `npm run bench` for where it stops being fine).
 *
 * Decoding thousands of BLOBs per query would dominate its cost, so each isolate keeps a decoded
 * snapshot per (tenant, collection) (src/adapters/vectors/snapshot.ts). Every write bumps the collection's
 * version row (vector_collections) in the same D1 batch; a query reads that row first and reloads
 * the snapshot only when another isolate wrote since (src/adapters/vectors/load.ts: from the stored base in
 * KV, in the scan's own layout, plus the rows changed since). Collections larger than the cache
 * budget are scanned from D1 directly.
 */
import { cosine } from "../../core/ranking/cosine";
import { randomToken } from "../../core/base/crypto";
import { ID_CHUNK } from "../../platform/db/by-ids";
import {
  assertSameModel,
  type VectorIndex,
  type VectorMatch,
  type VectorMetadata,
  VectorModelMismatch,
  type VectorRecord,
} from "../../platform/ports/vector-index";
import { VectorSnapshot, vectorBytes } from "./snapshot";
import { CACHE_BUDGET } from "../../platform/isolate/memory";
import { decodeVector, loadSnapshot, readBaseManifest } from "./load";

const METADATA_KEY = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;
/**
 * The snapshots of one isolate hold at most `cacheBytes` together (CACHE_BUDGET.vectorSnapshots,
 * src/platform/isolate/memory.ts, unless VECTOR_CACHE_MB says otherwise): the least recently used go first,
 * and a collection larger than the whole budget is scanned from D1. How many vectors that is:
 */
export const vectorsWithin = (cacheBytes: number, dimensions: number) => Math.floor(cacheBytes / vectorBytes(dimensions));

const snapshots = new Map<string, VectorSnapshot>();
/** Collections this isolate found without vectors (no version row), so no base manifest is read for them early. */
const emptyCollections = new Set<string>();
const MAX_EMPTY_REMEMBERED = 10_000;
/** Forgets every snapshot of this isolate, as a new isolate starts (tests and benchmarks). */
export function forgetSnapshots(): void {
  snapshots.clear();
  emptyCollections.clear();
}

const cacheKey = (tenantId: string, collection: string, model: string) => `${tenantId}\u0000${collection}\u0000${model}`;

interface VersionRow extends CollectionState {
  epoch: string;
  counter: number;
}

/** What a collection's version row says of it besides the version (migrations/0014). */
export interface CollectionState {
  /** Vectors in the collection, kept by triggers on `vectors`. */
  size: number;
  /** 1: written under VECTOR_INDEX=vectorize, so D1 lacks some of its vectors. */
  partial: number;
}

/**
 * The exact index, plus what VECTOR_INDEX=auto (src/adapters/vectors/auto.ts) asks of it to route a
 * collection to it or to Vectorize.
 */
export interface ExactIndex extends VectorIndex {
  /**
   * Each collection's size and completeness. They come with the version check a query makes
   * anyway: one round trip for all the collections named, and none more for this request's queries.
   */
  states(tenantId: string, collections: readonly string[]): Promise<CollectionState[]>;
  /** `similarities` read from the stored rows by id, never loading the collection (for one too large to hold). */
  storedSimilarities: VectorIndex["similarities"];
}

/**
 * `kv` keeps snapshot bases (src/adapters/vectors/snapshot-base.ts) so a new isolate loads fast; without it
 * every load reads D1 only. `cacheBytes` bounds what this isolate's snapshots hold together.
 */
export function exactD1Index(
  db: D1Database,
  model: string,
  dimensions: number,
  kv: KVNamespace | null = null,
  cacheBytes: number = CACHE_BUDGET.vectorSnapshots,
): ExactIndex {
  // An index object lives for one request (createServices runs per request), so one version
  // check per collection serves all of that request's queries; our own writes keep it current.
  const checked = new Map<string, Promise<VersionRow | null>>();
  /**
   * Snapshot loads under way in this request (a prefetch and the query after it share one). Not
   * shared across requests: workerd cancels a request's I/O when it ends, so another request
   * awaiting that load would wait forever.
   */
  const loading = new Map<string, Promise<VectorSnapshot | null>>();
  /** Base manifests read early in this request, by collection (a new isolate's first load). */
  const manifests = new Map<string, ReturnType<typeof readBaseManifest>>();
  /** One round trip reads the versions of every collection named (prefetch asks for several at once). */
  const checkVersions = (tenantId: string, collections: readonly string[]) => {
    const missing = collections.filter((c) => !checked.has(cacheKey(tenantId, c, model)));
    if (missing.length === 0) return;
    const rows = db
      .prepare(
        `SELECT collection, epoch, counter, size, partial FROM vector_collections WHERE tenant_id = ? AND collection IN (${missing.map(() => "?").join(",")})`,
      )
      .bind(tenantId, ...missing)
      .all<VersionRow & { collection: string }>()
      .then(({ results }) => new Map(results.map(({ collection, ...version }) => [collection, version])));
    for (const collection of missing)
      checked.set(
        cacheKey(tenantId, collection, model),
        rows.then((found) => found.get(collection) ?? null),
      );
  };
  const versionOf = (tenantId: string, collection: string) => {
    checkVersions(tenantId, [collection]);
    return checked.get(cacheKey(tenantId, collection, model))!;
  };
  const bump = (tenantId: string, collection: string) =>
    db
      .prepare(
        `INSERT INTO vector_collections (tenant_id, collection, epoch, counter) VALUES (?, ?, ?, 1)
         ON CONFLICT (tenant_id, collection) DO UPDATE SET counter = counter + 1 RETURNING epoch, counter, size, partial`,
      )
      .bind(tenantId, collection, randomToken(8));

  /** The current snapshot, (re)loaded if stale; null when the collection is too large to cache. */
  async function snapshot(tenantId: string, collection: string): Promise<VectorSnapshot | null> {
    const key = cacheKey(tenantId, collection, model);
    const target = { db, kv, tenantId, collection, model, dimensions };
    // No copy in this isolate (a new isolate): the base's manifest is read beside the version check,
    // once per request (a prefetch and its query share it).
    let manifest = manifests.get(key);
    if (!manifest && !snapshots.has(key) && !emptyCollections.has(key)) manifests.set(key, (manifest = readBaseManifest(target)));
    const version = await versionOf(tenantId, collection);
    if (!version) {
      // Remembered, so the next request reads no manifest early for a collection that has none.
      if (emptyCollections.size >= MAX_EMPTY_REMEMBERED) emptyCollections.clear();
      emptyCollections.add(key);
      return new VectorSnapshot(dimensions, "", 0, 1);
    }
    const cached = snapshots.get(key);
    // A copy newer than the version read is as good: a session on a lagging D1 read replica reads
    // an older counter than another request's write left in this isolate, and reloading for it
    // would cost a load per such request (src/platform/db/session.ts).
    if (cached && cached.epoch === version.epoch && cached.counter >= version.counter) {
      snapshots.delete(key);
      snapshots.set(key, cached); // most recently used last: eviction takes from the front
      return cached;
    }
    // A prefetch and its own query share one load.
    const loadKey = `${key}\u0000${version.epoch}\u0000${version.counter}`;
    let pending = loading.get(loadKey);
    if (!pending) {
      pending = loadSnapshot(target, version, cacheBytes, (bytes) => evictFor(bytes, cacheBytes), manifest)
        .then((loaded) => loaded.snapshot)
        .finally(() => loading.delete(loadKey));
      loading.set(loadKey, pending);
    }
    const loaded = await pending;
    if (loaded) {
      const current = snapshots.get(key);
      // A write applied to a newer copy meanwhile wins; an older one is replaced.
      if (!current || current.epoch !== loaded.epoch || current.counter < loaded.counter) {
        snapshots.delete(key);
        snapshots.set(key, loaded);
      }
    }
    return loaded;
  }

  /** After our own write: apply it to the snapshot if it was current just before, else drop the snapshot. */
  function afterWrite(tenantId: string, collection: string, version: VersionRow | undefined, apply: (s: VectorSnapshot) => void) {
    const key = cacheKey(tenantId, collection, model);
    checked.set(key, Promise.resolve(version ?? null));
    const cached = snapshots.get(key);
    if (!cached || !version) return;
    if (cached.epoch === version.epoch && cached.counter === version.counter - 1) {
      apply(cached);
      cached.counter = version.counter;
      // A write may have grown it: the budget holds after writes too.
      evictFor(0, cacheBytes);
    } else {
      snapshots.delete(key);
    }
  }

  return {
    kind: "d1-exact",
    maxTopK: 1000,
    prefetch(tenantId, collections) {
      checkVersions(tenantId, collections);
      // Errors surface in the query that needs the snapshot; a prefetch only starts the work early.
      for (const collection of collections) snapshot(tenantId, collection).catch(() => {});
    },
    async upsert(tenantId, collection, records) {
      if (records.length === 0) return;
      for (const record of records) assertSameModel(record, model, dimensions);
      const other = await db
        .prepare("SELECT model FROM vectors WHERE tenant_id = ? AND collection = ? AND model != ? LIMIT 1")
        .bind(tenantId, collection, model)
        .first<{ model: string }>();
      if (other) {
        throw new VectorModelMismatch(
          `collection ${collection} holds vectors of model ${other.model}; re-embed it before writing ${model} vectors`,
        );
      }
      const now = Date.now();
      const results = await db.batch<VersionRow>([
        ...records.map((r) => upsertStatement(db, tenantId, collection, r, now)),
        bump(tenantId, collection),
      ]);
      afterWrite(tenantId, collection, results.at(-1)?.results[0], (s) => {
        for (const r of records) s.upsert(r.id, r.vector, r.metadata);
      });
    },
    async query(tenantId, collection, { vector, model: queryModel, topK, filter }) {
      assertSameModel({ model: queryModel, vector }, model, dimensions);
      for (const key of Object.keys(filter ?? {})) {
        if (!METADATA_KEY.test(key)) throw new Error(`invalid metadata filter key: ${key}`);
      }
      const cached = await snapshot(tenantId, collection);
      if (cached) return cached.query(vector, topK, filter);
      return scanFromD1(db, tenantId, collection, model, vector, topK, filter);
    },
    async similarities(tenantId, collection, { vector, model: queryModel }, ids) {
      assertSameModel({ model: queryModel, vector }, model, dimensions);
      const cached = await snapshot(tenantId, collection);
      if (cached) return cached.similarities(vector, ids);
      return similaritiesFromRows(db, tenantId, collection, model, vector, ids);
    },
    async storedSimilarities(tenantId, collection, { vector, model: queryModel }, ids) {
      assertSameModel({ model: queryModel, vector }, model, dimensions);
      return similaritiesFromRows(db, tenantId, collection, model, vector, ids);
    },
    async states(tenantId, collections) {
      checkVersions(tenantId, collections);
      const versions = await Promise.all(collections.map((collection) => checked.get(cacheKey(tenantId, collection, model))!));
      return versions.map((version) => ({ size: version?.size ?? 0, partial: version?.partial ?? 0 }));
    },
    async delete(tenantId, collection, ids) {
      for (let i = 0; i < ids.length; i += ID_CHUNK) {
        const chunk = ids.slice(i, i + ID_CHUNK);
        const results = await db.batch<VersionRow>([
          db
            .prepare(`DELETE FROM vectors WHERE tenant_id = ? AND collection = ? AND id IN (${chunk.map(() => "?").join(",")})`)
            .bind(tenantId, collection, ...chunk),
          bump(tenantId, collection),
        ]);
        afterWrite(tenantId, collection, results.at(-1)?.results[0], (s) => {
          for (const id of chunk) s.delete(id);
        });
      }
    },
  };
}

/** What this isolate's snapshots hold now, all collections together. */
export function cachedSnapshotBytes(): number {
  let total = 0;
  for (const s of snapshots.values()) total += s.bytes;
  return total;
}

/** Drops the least recently used snapshots until `bytes` more fit in `cacheBytes`. */
function evictFor(bytes: number, cacheBytes: number): void {
  let total = cachedSnapshotBytes();
  for (const [key, s] of snapshots) {
    if (total + bytes <= cacheBytes) break;
    snapshots.delete(key);
    total -= s.bytes;
  }
}

async function similaritiesFromRows(
  db: D1Database,
  tenantId: string,
  collection: string,
  model: string,
  vector: Float32Array,
  ids: readonly string[],
): Promise<Map<string, number>> {
  const scores = new Map<string, number>();
  // CROSS JOIN: one lookup by key per id (src/platform/db/by-ids.ts), not a scan of the collection.
  const { results } = await db
    .prepare(
      `SELECT v.id, hex(v.vector) AS vector FROM json_each(?4) AS j
       CROSS JOIN vectors AS v ON v.tenant_id = ?1 AND v.collection = ?2 AND v.id = j.value WHERE v.model = ?3`,
    )
    .bind(tenantId, collection, model, JSON.stringify(ids))
    .all<{ id: string; vector: string }>();
  for (const row of results) scores.set(row.id, cosine(vector, decodeVector(row.vector)));
  return scores;
}

async function scanFromD1(
  db: D1Database,
  tenantId: string,
  collection: string,
  model: string,
  vector: Float32Array,
  topK: number,
  filter: VectorMetadata | undefined,
): Promise<VectorMatch[]> {
  const where = ["tenant_id = ?", "collection = ?", "model = ?"];
  const params: (string | number)[] = [tenantId, collection, model];
  for (const [key, value] of Object.entries(filter ?? {})) {
    where.push(`json_extract(metadata, '$.${key}') = ?`);
    params.push(typeof value === "boolean" ? Number(value) : value);
  }
  const { results } = await db
    .prepare(`SELECT id, hex(vector) AS vector FROM vectors WHERE ${where.join(" AND ")}`)
    .bind(...params)
    .all<{ id: string; vector: string }>();
  const matches = results.map((row) => ({ id: row.id, score: cosine(vector, decodeVector(row.vector)) }));
  return matches.sort((a, b) => b.score - a.score).slice(0, topK);
}

/**
 * Every rewrite of a row moves its updated_at forward, even within one millisecond or against a
 * slower clock: a snapshot base (src/adapters/vectors/load.ts) takes a row whose updated_at is unchanged
 * as unchanged.
 */
function upsertStatement(db: D1Database, tenantId: string, collection: string, record: VectorRecord, now: number) {
  // Copy into a tight buffer: a Float32Array may be a view on a larger one.
  const blob = record.vector.slice().buffer;
  return db
    .prepare(
      `INSERT INTO vectors (tenant_id, collection, id, model, dimensions, vector, metadata, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (tenant_id, collection, id) DO UPDATE SET
         model = excluded.model, dimensions = excluded.dimensions, vector = excluded.vector,
         metadata = excluded.metadata, updated_at = max(excluded.updated_at, vectors.updated_at + 1)`,
    )
    .bind(tenantId, collection, record.id, record.model, record.vector.length, blob, JSON.stringify(record.metadata), now);
}
