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
 * budget are scanned from D1 directly. A new isolate answers a large collection's first queries
 * from its base's sign codes and loads the snapshot after the response (first-answer.ts).
 */
import { BoundedMap } from "../../core/base/bounded-map";
import { randomToken } from "../../core/base/crypto";
import { ID_CHUNK } from "../../platform/db/by-ids";
import { assertSameModel, type VectorIndex, VectorModelMismatch } from "../../platform/ports/vector-index";
import type { Defer } from "../../platform/ports/services";
import { rescoreDepth, usesFloatScanOnly, VectorSnapshot, vectorBytes } from "./snapshot";
import { CACHE_BUDGET } from "../../platform/isolate/memory";
import { loadSnapshot, type LoadTarget, readBaseManifest, REBUILD_MIN_ROWS } from "./load";
import { scanFromD1, similaritiesFromRows, upsertStatement } from "./d1-rows";
import { type CodeIndex, FIRST_ANSWER_MIN_ROWS, nearestByCode } from "./first-answer";
import { baseIsCurrent, readCodes, type SnapshotBase, writeBase } from "./snapshot-base";

const METADATA_KEY = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;
/**
 * The snapshots of one isolate hold at most `cacheBytes` together (CACHE_BUDGET.vectorSnapshots,
 * src/platform/isolate/memory.ts, unless VECTOR_CACHE_MB says otherwise): the least recently used go first,
 * and a collection larger than the whole budget is scanned from D1. How many vectors that is:
 */
export const vectorsWithin = (cacheBytes: number, dimensions: number) => Math.floor(cacheBytes / vectorBytes(dimensions));

const snapshots = new Map<string, VectorSnapshot>();
/**
 * The codes of collections whose snapshot is still loading, by cache key and build. Each holds its
 * rows' ids besides the codes (≈ 5 MB at 40k rows), so few are kept: the collections a new
 * isolate's first requests ask for, each dropped when its snapshot is in.
 */
const codeIndexes = new Map<string, CodeIndex>();
const MAX_CODE_INDEXES = 4;
/** Loads running after a response, by load key, with when they started: one at a time per version. */
const loadsAfterResponse = new Map<string, number>();
/** A load after a response that has not finished in this long is taken for lost (its request ended), and may start again. */
const LOAD_AFTER_RESPONSE_LOST_MS = 60_000;
/** Rows this isolate's writes changed in a snapshot since it was loaded or stored: past REBUILD_MIN_ROWS, it is stored as the base. */
const unstoredRows = new Map<string, number>();
/** Collections this isolate found without vectors (no version row), so no base manifest is read for them early. */
const emptyCollections = new BoundedMap<string, true>(10_000);
/** Forgets every snapshot of this isolate, as a new isolate starts (tests and benchmarks). */
export function forgetSnapshots(): void {
  snapshots.clear();
  emptyCollections.clear();
  codeIndexes.clear();
  loadsAfterResponse.clear();
  unstoredRows.clear();
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

/** What a query reads: the snapshot (null: too large to cache), or a new isolate's codes while the snapshot loads. */
type Readable = { snapshot: VectorSnapshot | null; codes?: undefined } | { snapshot?: undefined; codes: CodeIndex };

/**
 * `kv` keeps snapshot bases (src/adapters/vectors/snapshot-base.ts) so a new isolate loads fast; without it
 * every load reads D1 only. `cacheBytes` bounds what this isolate's snapshots hold together.
 * `defer` (a request's waitUntil) lets a request answer from a base's codes and load the snapshot
 * after its response, and store a base after writes; without it (jobs, tests) loads are awaited.
 */
export function exactD1Index(
  db: D1Database,
  model: string,
  dimensions: number,
  kv: KVNamespace | null = null,
  cacheBytes: number = CACHE_BUDGET.vectorSnapshots,
  defer?: Defer,
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
  /** Codes read in this request (a prefetch and its query share one read), by cache key and build. */
  const codeReads = new Map<string, Promise<CodeIndex | null>>();
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

  /**
   * The current snapshot, (re)loaded if stale; null when the collection is too large to cache. On
   * a new isolate with `defer`, a large collection whose base is current is read from its codes
   * instead, and its snapshot loads after the response.
   */
  async function readable(tenantId: string, collection: string, codesServe: (rows: number) => boolean = () => true): Promise<Readable> {
    const key = cacheKey(tenantId, collection, model);
    const target = { db, kv, tenantId, collection, model, dimensions };
    // No copy in this isolate (a new isolate): the base's manifest is read beside the version check,
    // once per request (a prefetch and its query share it).
    let manifest = manifests.get(key);
    if (!manifest && !snapshots.has(key) && !emptyCollections.has(key)) manifests.set(key, (manifest = readBaseManifest(target)));
    const version = await versionOf(tenantId, collection);
    if (!version) {
      // Remembered, so the next request reads no manifest early for a collection that has none.
      emptyCollections.set(key, true);
      return { snapshot: new VectorSnapshot(dimensions, "", 0, 1) };
    }
    const cached = snapshots.get(key);
    // A copy newer than the version read is as good: a session on a lagging D1 read replica reads
    // an older counter than another request's write left in this isolate, and reloading for it
    // would cost a load per such request (src/platform/db/session.ts).
    if (cached && isCurrentIn(cached, version)) {
      snapshots.delete(key);
      snapshots.set(key, cached); // most recently used last: eviction takes from the front
      return { snapshot: cached };
    }
    const loadKey = `${key}\u0000${version.epoch}\u0000${version.counter}`;
    const base = defer && manifest ? await manifest : null;
    const rows = base?.manifest.ids.length ?? 0;
    if (defer && base && baseIsCurrent(base, version) && rows >= FIRST_ANSWER_MIN_ROWS && codesServe(rows)) {
      const codes = await codesOf(key, base);
      if (codes) {
        loadAfterResponse(defer, loadKey, () =>
          isCurrentIn(snapshots.get(key), version) ? Promise.resolve() : load(key, target, version, manifest),
        );
        return { codes };
      }
    }
    // A prefetch and its own query share one load.
    let pending = loading.get(loadKey);
    if (!pending) {
      pending = load(key, target, version, manifest).finally(() => loading.delete(loadKey));
      loading.set(loadKey, pending);
    }
    return { snapshot: await pending };
  }

  /** Loads the snapshot (null: too large to cache) and keeps it unless a newer copy arrived meanwhile. */
  async function load(key: string, target: LoadTarget, version: VersionRow, manifest: ReturnType<typeof readBaseManifest> | undefined) {
    const { snapshot: loaded, stats } = await loadSnapshot(target, version, cacheBytes, (bytes) => evictFor(bytes, cacheBytes), manifest);
    if (loaded) {
      const current = snapshots.get(key);
      // A write applied to a newer copy meanwhile wins; an older one is replaced.
      if (!current || current.epoch !== loaded.epoch || current.counter < loaded.counter) {
        snapshots.delete(key);
        snapshots.set(key, loaded);
        unstoredRows.set(key, stats.rebuilt ? 0 : stats.fromD1);
        for (const codesKey of codeIndexes.keys()) if (codesKey.startsWith(`${key}\u0000`)) codeIndexes.delete(codesKey);
      }
    }
    return loaded;
  }

  /** The base's codes, read once per isolate; null when they are missing (an older base: the snapshot is loaded instead). */
  function codesOf(key: string, base: SnapshotBase): Promise<CodeIndex | null> {
    const codesKey = `${key}\u0000${base.manifest.build}`;
    const kept = codeIndexes.get(codesKey);
    if (kept) return Promise.resolve(kept);
    let reading = codeReads.get(codesKey);
    if (!reading) {
      reading = readCodes(kv!, base).then(
        (codes) => {
          if (!codes) return null;
          if (codeIndexes.size >= MAX_CODE_INDEXES) codeIndexes.delete(codeIndexes.keys().next().value!);
          const index = { ids: base.manifest.ids, codes, dimensions };
          codeIndexes.set(codesKey, index);
          return index;
        },
        () => null,
      );
      codeReads.set(codesKey, reading);
    }
    return reading;
  }

  /**
   * Once the rows written since the snapshot was loaded or stored reach REBUILD_MIN_ROWS and half
   * its size, it is stored as the base after the response: a bulk import stores a base each time
   * the collection has grown by half, so its stores add up to about twice the final size.
   */
  function storeAfterWrites(tenantId: string, collection: string, snapshot: VectorSnapshot, rows: number) {
    const key = cacheKey(tenantId, collection, model);
    const unstored = (unstoredRows.get(key) ?? 0) + rows;
    unstoredRows.set(key, unstored);
    if (!kv || !defer || unstored < Math.max(REBUILD_MIN_ROWS, snapshot.size / 2)) return;
    unstoredRows.set(key, 0);
    // A base that fails to store costs the next isolate time, never an answer.
    defer(() => writeBase(kv, tenantId, collection, model, snapshot).catch(() => unstoredRows.set(key, unstored)));
  }

  /** After our own write: apply it to the snapshot if it was current just before, else drop the snapshot. */
  function afterWrite(
    tenantId: string,
    collection: string,
    version: VersionRow | undefined,
    rows: number,
    apply: (s: VectorSnapshot) => void,
  ) {
    const key = cacheKey(tenantId, collection, model);
    checked.set(key, Promise.resolve(version ?? null));
    const cached = snapshots.get(key);
    if (!cached || !version) return;
    if (cached.epoch === version.epoch && cached.counter === version.counter - 1) {
      apply(cached);
      cached.counter = version.counter;
      // A write may have grown it: the budget holds after writes too.
      evictFor(0, cacheBytes);
      storeAfterWrites(tenantId, collection, cached, rows);
    } else {
      snapshots.delete(key);
      unstoredRows.delete(key);
    }
  }

  return {
    kind: "d1-exact",
    maxTopK: 1000,
    prefetch(tenantId, collections) {
      checkVersions(tenantId, collections);
      // Errors surface in the query that needs the snapshot; a prefetch only starts the work early.
      for (const collection of collections) readable(tenantId, collection).catch(() => {});
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
      const results = await db.batch<VersionRow & { updated_at: number }>([
        ...records.map((r) => upsertStatement(db, tenantId, collection, r, now)),
        bump(tenantId, collection),
      ]);
      afterWrite(tenantId, collection, results.at(-1)?.results[0], records.length, (s) => {
        for (const [i, r] of records.entries()) s.upsert(r.id, r.vector, r.metadata, results[i]?.results[0]?.updated_at);
      });
    },
    async query(tenantId, collection, { vector, model: queryModel, topK, filter }) {
      assertSameModel({ model: queryModel, vector }, model, dimensions);
      for (const key of Object.keys(filter ?? {})) {
        if (!METADATA_KEY.test(key)) throw new Error(`invalid metadata filter key: ${key}`);
      }
      const filtered = Object.keys(filter ?? {}).length > 0;
      const found = await readable(tenantId, collection, (rows) => !filtered && !usesFloatScanOnly(rows, topK, dimensions));
      if (found.codes) {
        const nearest = nearestByCode(found.codes, vector, rescoreDepth(topK));
        const scores = await similaritiesFromRows(db, tenantId, collection, model, vector, nearest);
        return [...scores]
          .map(([id, score]) => ({ id, score }))
          .sort((a, b) => b.score - a.score)
          .slice(0, topK);
      }
      if (found.snapshot) return found.snapshot.query(vector, topK, filter);
      return scanFromD1(db, tenantId, collection, model, vector, topK, filter);
    },
    async similarities(tenantId, collection, { vector, model: queryModel }, ids) {
      assertSameModel({ model: queryModel, vector }, model, dimensions);
      // Codes hold no cosines: the ids' own rows give them.
      const found = await readable(tenantId, collection);
      if (found.snapshot) return found.snapshot.similarities(vector, ids);
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
        afterWrite(tenantId, collection, results.at(-1)?.results[0], chunk.length, (s) => {
          for (const id of chunk) s.delete(id);
        });
      }
    },
  };
}

/** Whether the snapshot is of the version read, or newer (see `readable`). */
const isCurrentIn = (snapshot: VectorSnapshot | undefined, version: { epoch: string; counter: number }) =>
  snapshot !== undefined && snapshot.epoch === version.epoch && snapshot.counter >= version.counter;

/** Starts `load` after the response unless one for the same version is under way. */
function loadAfterResponse(defer: Defer, loadKey: string, load: () => Promise<unknown>): void {
  const started = loadsAfterResponse.get(loadKey);
  if (started !== undefined && Date.now() - started < LOAD_AFTER_RESPONSE_LOST_MS) return;
  loadsAfterResponse.set(loadKey, Date.now());
  defer(() => load().finally(() => loadsAfterResponse.delete(loadKey)));
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
    unstoredRows.delete(key);
    total -= s.bytes;
  }
}
