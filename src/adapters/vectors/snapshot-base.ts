/**
 * Snapshot bases in KV: the exact index's vectors of one (tenant, collection, model), stored in
 * the layout the scan reads (src/adapters/vectors/packed.ts), so a new isolate loads 40k vectors as a few
 * binary pages instead of decoding 40k rows. A base is only a cache: D1's `vectors` rows decide.
 * The loader (src/adapters/vectors/load.ts) lists the rows' ids and `updated_at` and takes from the base
 * only the rows unchanged since it was built; the rest come from D1. A base is rebuilt when a
 * load had to read many rows from D1, or an isolate's own writes changed many (exact-d1.ts).
 *
 * Beside the pages, one value holds every row's sign code, for a new isolate's first answers.
 * Pages are written under a fresh build token before the manifest that names them, so a reader
 * never sees a half-written base; pages of old builds expire (BASE_TTL_SECONDS). KV is
 * eventually consistent across locations: a stale manifest only means more rows from D1.
 */
import { randomToken } from "../../core/base/crypto";
import { type BaseManifest, codeWords, PAGE_ROWS, packPage, pageCount, parseManifest, unpackPage, type UnpackedPage } from "./packed";
import type { VectorSnapshot } from "./snapshot";

/** A base left unused this long disappears (every rebuild writes a new one). */
export const BASE_TTL_SECONDS = 7 * 24 * 3600;

/** A stored base's manifest and where its pages are. */
export interface SnapshotBase {
  manifest: BaseManifest;
  key: string;
}

const manifestKey = (tenantId: string, collection: string, model: string) => `vsnap:v1:${tenantId}:${collection}:${model}`;
const pageKey = (manifest: string, build: string, page: number) => `${manifest}:${build}:${page}`;
const codesKey = (manifest: string, build: string) => `${manifest}:${build}:codes`;

/** Whether nothing was written to the collection since the base was built: its rows are the collection's. */
export const baseIsCurrent = ({ manifest }: SnapshotBase, version: { epoch: string; counter: number }) =>
  manifest.version.epoch === version.epoch && manifest.version.counter === version.counter;

/** The stored base's manifest, or null when there is none or it is of another layout. */
export async function readManifest(
  kv: KVNamespace,
  tenantId: string,
  collection: string,
  model: string,
  dimensions: number,
): Promise<SnapshotBase | null> {
  const key = manifestKey(tenantId, collection, model);
  const text = await kv.get(key, "text");
  const manifest = text === null ? null : parseManifest(text, dimensions);
  return manifest ? { manifest, key } : null;
}

/**
 * Pages [from, to) of a base, fetched at once; null when one is missing or not the size the
 * manifest says (expired, or another build's). The loader asks for a few pages at a time, so
 * a large base never sits in memory beside the whole snapshot built from it.
 */
export async function readPages(kv: KVNamespace, base: SnapshotBase, from: number, to: number): Promise<UnpackedPage[] | null> {
  const { manifest, key } = base;
  const buffers = await Promise.all(
    Array.from({ length: to - from }, (_, i) => kv.get(pageKey(key, manifest.build, from + i), "arrayBuffer")),
  );
  const pages: UnpackedPage[] = [];
  for (const [i, buffer] of buffers.entries()) {
    if (!buffer) return null;
    const page = unpackPage(buffer, manifest.dimensions);
    if (page.rows !== Math.min(PAGE_ROWS, manifest.ids.length - (from + i) * PAGE_ROWS)) return null;
    pages.push(page);
  }
  return pages;
}

/**
 * Every row's sign code, in the manifest's order (one value: 2.5 MB for 40k rows at 512-d), for a
 * first answer before the pages are loaded (src/adapters/vectors/first-answer.ts); null when missing
 * or not the size the manifest says.
 */
export async function readCodes(kv: KVNamespace, base: SnapshotBase): Promise<Uint32Array | null> {
  const { manifest, key } = base;
  const buffer = await kv.get(codesKey(key, manifest.build), "arrayBuffer");
  if (!buffer || buffer.byteLength !== manifest.ids.length * codeWords(manifest.dimensions) * 4) return null;
  return new Uint32Array(buffer);
}

/**
 * Stores the snapshot's rows as the new base. Everything is copied before the first write is
 * awaited, so a write to the snapshot meanwhile cannot tear it.
 */
export async function writeBase(
  kv: KVNamespace,
  tenantId: string,
  collection: string,
  model: string,
  snapshot: VectorSnapshot,
): Promise<void> {
  const key = manifestKey(tenantId, collection, model);
  const { ids, metadata, updatedAt, vectors, codes } = snapshot.rows();
  const manifest: BaseManifest = {
    layout: 1,
    build: randomToken(8),
    dimensions: snapshot.dimensions,
    ids: [...ids],
    updatedAt: [...updatedAt],
    metadata: metadata.map((m) => JSON.stringify(m)),
    version: { epoch: snapshot.epoch, counter: snapshot.counter },
  };
  const options = { expirationTtl: BASE_TTL_SECONDS };
  const allCodes = codes.slice(0, ids.length * codeWords(snapshot.dimensions)).buffer;
  await Promise.all([
    kv.put(codesKey(key, manifest.build), allCodes, options),
    ...Array.from({ length: pageCount(ids.length) }, (_, i) =>
      kv.put(
        pageKey(key, manifest.build, i),
        packPage(vectors, codes, snapshot.dimensions, i * PAGE_ROWS, Math.min(ids.length, (i + 1) * PAGE_ROWS)),
        options,
      ),
    ),
  ]);
  await kv.put(key, JSON.stringify(manifest), options);
}
