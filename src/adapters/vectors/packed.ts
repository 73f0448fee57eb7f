/**
 * The stored layout of a snapshot base (src/adapters/vectors/snapshot-base.ts): pages of rows in exactly
 * the layout the scan reads (src/adapters/vectors/snapshot.ts), so loading one is a copy, not a decode.
 * A page is the unit-normalized float32 vectors of its rows, one after another, followed by their
 * sign codes (uint32 words), both little-endian as typed arrays are on every Workers host.
 * Pure: no storage here.
 */

/** Rows per stored page: 2,048 × 512-d ≈ 4.3 MB, well under KV's 25 MiB value limit. */
export const PAGE_ROWS = 2048;

/** 32-bit words of one sign code. */
export function codeWords(dimensions: number): number {
  return Math.ceil(dimensions / 32);
}

/** Rows [from, to) of the arrays as one page. */
export function packPage(vectors: Float32Array, codes: Uint32Array, dimensions: number, from: number, to: number): ArrayBuffer {
  const words = codeWords(dimensions);
  const rows = to - from;
  const page = new ArrayBuffer(rows * (dimensions + words) * 4);
  new Float32Array(page, 0, rows * dimensions).set(vectors.subarray(from * dimensions, to * dimensions));
  new Uint32Array(page, rows * dimensions * 4, rows * words).set(codes.subarray(from * words, to * words));
  return page;
}

export interface UnpackedPage {
  rows: number;
  /** Views on the page's buffer (no copy). */
  vectors: Float32Array;
  codes: Uint32Array;
}

/** The rows of a page; throws when its size does not fit the dimensions (a page of another layout). */
export function unpackPage(page: ArrayBuffer, dimensions: number): UnpackedPage {
  const words = codeWords(dimensions);
  const rowBytes = (dimensions + words) * 4;
  if (page.byteLength % rowBytes !== 0) throw new Error(`a page of ${page.byteLength} bytes does not hold ${dimensions}-d rows`);
  const rows = page.byteLength / rowBytes;
  return {
    rows,
    vectors: new Float32Array(page, 0, rows * dimensions),
    codes: new Uint32Array(page, rows * dimensions * 4, rows * words),
  };
}

/** Which rows a base holds, and as of when: the pages follow `ids` in order, PAGE_ROWS per page. */
export interface BaseManifest {
  layout: 1;
  build: string;
  dimensions: number;
  ids: string[];
  /** Each row's `vectors.updated_at` when the base was built: a row whose value differs is read from D1. */
  updatedAt: number[];
  /** Each row's metadata (JSON), for a load that can skip listing the rows. */
  metadata: string[];
  /**
   * The collection's version (vector_collections) the base was loaded at: its rows are that
   * version's or newer. When the collection is still at this version nothing was written since,
   * and a load takes every row from the base without listing D1's.
   */
  version: { epoch: string; counter: number };
}

/** A manifest read back from storage, or null when it is not one this code wrote. */
export function parseManifest(text: string, dimensions: number): BaseManifest | null {
  const value = JSON.parse(text) as Partial<BaseManifest>;
  if (value.layout !== 1 || value.dimensions !== dimensions || typeof value.build !== "string") return null;
  if (!Array.isArray(value.ids) || !Array.isArray(value.updatedAt) || value.ids.length !== value.updatedAt.length) return null;
  if (!Array.isArray(value.metadata) || value.metadata.length !== value.ids.length) return null;
  if (typeof value.version?.epoch !== "string" || typeof value.version.counter !== "number") return null;
  return value as BaseManifest;
}

export function pageCount(rows: number): number {
  return Math.ceil(rows / PAGE_ROWS);
}
