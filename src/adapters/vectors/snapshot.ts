/**
 * An in-memory copy of one (tenant, collection)'s vectors, kept in two layouts the scan reads
 * contiguously: the unit-normalized float32 vectors, and their sign codes (one bit per
 * dimension: 16 uint32 words at 512-d, 1/32 of the bytes), both in WebAssembly memory where the
 * scan's kernels read them (src/adapters/vectors/scan-memory.ts). Pure data structure;
 * src/adapters/vectors/exact-d1.ts decides when a snapshot is current.
 *
 * A query over a small collection (or for many results) is a plain float scan. Over a larger
 * one it has two stages: every vector is ranked by the Hamming distance between its sign code
 * and the query's (the signs of two vectors agree on a share of dimensions that grows with their
 * cosine), and only the best `rescoreDepth(topK)` are scored in float32. Returned scores are
 * therefore cosines to float32 precision; what the first stage can cost is recall, which
 * `npm run bench -- vector` measures against the full float ranking on real embeddings (≥ 0.99
 * required).
 */
import type { VectorMatch, VectorMetadata } from "../../platform/ports/vector-index";
import { ScanMemory } from "./scan-memory";

/**
 * Float32 rescoring depth per requested result in the two-stage scan (`npm run bench -- vector`
 * measures the recall this keeps at the FAQ search's windows: 10, 40 and 120).
 */
export const RESCORE_PER_RESULT = 5;
/** The two-stage scan rescores at least this many vectors, whatever topK is. */
export const MIN_RESCORE = 256;

/** Vectors the first stage passes on to float32 rescoring for a query asking for topK. */
export function rescoreDepth(topK: number): number {
  return Math.max(topK * RESCORE_PER_RESULT, MIN_RESCORE);
}

/**
 * Sign codes of fewer dimensions are too coarse to rank by (8 bits tell 9 distances apart), and
 * a float scan of such short vectors costs little: below this, every query is a float scan.
 */
export const TWO_STAGE_MIN_DIMENSIONS = 64;

/**
 * A collection no larger than twice the rescoring depth is scanned in float32 only: the first
 * stage would save less than it costs. (It was every collection up to 2,048 vectors; the
 * two-stage scan from 513 on cut a 1k-FAQ search's scan by more than half at the same recall.)
 */
export function usesFloatScanOnly(size: number, topK: number, dimensions: number): boolean {
  return dimensions < TWO_STAGE_MIN_DIMENSIONS || size <= rescoreDepth(topK) * 2;
}

/**
 * How much a full snapshot grows on the next new vector. A load allocates exactly what it reads,
 * so a large collection grows on its first new vector after a load. Doubling a 30k-vector snapshot
 * (61 MB at 512-d) would take 123 MB, and 184 MB during the copy, past a Worker's 128 MB; a
 * quarter more takes 77 MB (138 MB during the copy), and copies stay a constant cost per vector.
 */
const GROWTH = 1.25;
/**
 * JavaScript heap per vector beside its WebAssembly row: its id, its metadata object, its entry in
 * the slot map (`npm run bench -- memory` measures it).
 */
export const VECTOR_OVERHEAD_BYTES = 256;

/** WebAssembly bytes per slot: the float32 vector, its sign code, and the scan's per-slot buffers (ScanMemory). */
export const slotBytes = (dimensions: number) => 4 * dimensions + 4 * Math.ceil(dimensions / 32) + 10;

/** What one more vector of a snapshot costs in all. */
export const vectorBytes = (dimensions: number) => slotBytes(dimensions) + VECTOR_OVERHEAD_BYTES;

/** Marks a slot the filter rejected in the distance buffer. */
const REJECTED = 0xffff;

export class VectorSnapshot {
  private ids: string[] = [];
  private metadata: VectorMetadata[] = [];
  /**
   * Each row's `vectors.updated_at` in D1, what a stored base records (src/adapters/vectors/load.ts):
   * -1 where unknown, so a load takes that row from D1, never from the base.
   */
  private updatedAt: number[] = [];
  private slots = new Map<string, number>();
  private readonly words: number;
  /** Allocated with the first vector: an empty collection's snapshot costs no WebAssembly memory. */
  private memory: ScanMemory | null = null;

  constructor(
    readonly dimensions: number,
    public epoch: string,
    public counter: number,
    private readonly initialCapacity = 64,
  ) {
    this.words = Math.ceil(dimensions / 32);
  }

  get size(): number {
    return this.ids.length;
  }

  /** What this snapshot holds: its WebAssembly memory as allocated (room to grow included) and its vectors' JavaScript side. */
  get bytes(): number {
    return (this.memory?.capacity ?? 0) * slotBytes(this.dimensions) + this.size * VECTOR_OVERHEAD_BYTES;
  }

  upsert(id: string, vector: ArrayLike<number>, metadata: VectorMetadata, updatedAt = -1): void {
    const { vectors, codes } = this.rowOf(this.slotFor(id, metadata, updatedAt));
    normalizeInto(vector, vectors);
    signCodeInto(vectors, codes);
  }

  /**
   * Adds or replaces a vector already unit-normalized with its sign code (rows of a stored page,
   * src/adapters/vectors/packed.ts): copied as they are.
   */
  upsertPacked(id: string, unit: Float32Array, code: Uint32Array, metadata: VectorMetadata, updatedAt = -1): void {
    const { vectors, codes } = this.rowOf(this.slotFor(id, metadata, updatedAt));
    vectors.set(unit);
    codes.set(code);
  }

  /**
   * Appends rows the snapshot does not hold yet, already unit-normalized with their sign codes (a
   * stored page, taken whole): one copy for all of them instead of one per row.
   */
  appendPacked(
    ids: readonly string[],
    metadata: readonly VectorMetadata[],
    updatedAt: readonly number[],
    units: Float32Array,
    codes: Uint32Array,
  ): void {
    const held = ids.find((id) => this.slots.has(id));
    if (held !== undefined) throw new Error(`appendPacked: ${held} is in the snapshot already`);
    const first = this.ids.length;
    while ((this.memory?.capacity ?? 0) < first + ids.length) this.grow();
    this.memory!.vectors.set(units, first * this.dimensions);
    this.memory!.codes.set(codes, first * this.words);
    for (const [i, id] of ids.entries()) {
      this.slots.set(id, first + i);
      this.ids.push(id);
      this.metadata.push(metadata[i]!);
      this.updatedAt.push(updatedAt[i]!);
    }
  }

  /** The slots' ids and their rows, in slot order (views, valid until the next write): what a stored page packs. */
  rows(): {
    ids: readonly string[];
    metadata: readonly VectorMetadata[];
    updatedAt: readonly number[];
    vectors: Float32Array;
    codes: Uint32Array;
  } {
    return {
      ids: this.ids,
      metadata: this.metadata,
      updatedAt: this.updatedAt,
      vectors: this.memory?.vectors.subarray(0, this.size * this.dimensions) ?? new Float32Array(0),
      codes: this.memory?.codes.subarray(0, this.size * this.words) ?? new Uint32Array(0),
    };
  }

  delete(id: string): void {
    const slot = this.slots.get(id);
    if (slot === undefined) return;
    const last = this.ids.length - 1;
    if (slot !== last) {
      // Move the last vector into the hole.
      const lastId = this.ids[last]!;
      const { vectors, codes } = this.memory!;
      vectors.copyWithin(slot * this.dimensions, last * this.dimensions, (last + 1) * this.dimensions);
      codes.copyWithin(slot * this.words, last * this.words, (last + 1) * this.words);
      this.ids[slot] = lastId;
      this.metadata[slot] = this.metadata[last]!;
      this.updatedAt[slot] = this.updatedAt[last]!;
      this.slots.set(lastId, slot);
    }
    this.ids.pop();
    this.metadata.pop();
    this.updatedAt.pop();
    this.slots.delete(id);
  }

  private slotFor(id: string, metadata: VectorMetadata, updatedAt: number): number {
    let slot = this.slots.get(id);
    if (slot === undefined) {
      slot = this.ids.length;
      if (slot === (this.memory?.capacity ?? 0)) this.grow();
      this.ids.push(id);
      this.metadata.push(metadata);
      this.updatedAt.push(updatedAt);
      this.slots.set(id, slot);
    } else {
      this.metadata[slot] = metadata;
      this.updatedAt[slot] = updatedAt;
    }
    return slot;
  }

  private rowOf(slot: number): { vectors: Float32Array; codes: Uint32Array } {
    const { vectors, codes } = this.memory!;
    return {
      vectors: vectors.subarray(slot * this.dimensions, (slot + 1) * this.dimensions),
      codes: codes.subarray(slot * this.words, (slot + 1) * this.words),
    };
  }

  /** The topK by cosine among the vectors whose metadata equals every filter entry. */
  query(vector: ArrayLike<number>, topK: number, filter: VectorMetadata = {}): VectorMatch[] {
    const memory = this.withQuery(vector);
    if (!memory) return [];
    const conditions = Object.entries(filter);
    const accepts = conditions.length === 0 ? null : (slot: number) => conditions.every(([k, v]) => this.metadata[slot]![k] === v);
    if (usesFloatScanOnly(this.size, topK, this.dimensions)) return this.floatScan(memory, topK, accepts);
    return this.best(memory, this.nearestCodes(memory, rescoreDepth(topK), accepts), topK);
  }

  /** The exact float32 ranking of every vector (the reference the two-stage scan is measured against). */
  exactQuery(vector: ArrayLike<number>, topK: number): VectorMatch[] {
    const memory = this.withQuery(vector);
    return memory ? this.floatScan(memory, topK, null) : [];
  }

  similarities(vector: ArrayLike<number>, ids: readonly string[]): Map<string, number> {
    const memory = this.withQuery(vector);
    if (!memory) return new Map();
    // Each id found, with its place in memory.slots.
    const found = new Map<string, number>();
    for (const id of ids) {
      const slot = this.slots.get(id);
      if (slot === undefined || found.has(id)) continue;
      memory.slots[found.size] = slot;
      found.set(id, found.size);
    }
    memory.dots(found.size);
    return new Map([...found].map(([id, i]) => [id, memory.scores[i]!]));
  }

  /** The scan's memory with `vector`, unit-normalized, as its query; null when there is nothing to scan. */
  private withQuery(vector: ArrayLike<number>): ScanMemory | null {
    if (!this.memory || this.size === 0) return null;
    normalizeInto(vector, this.memory.query);
    return this.memory;
  }

  /** The best topK by float32 cosine among every slot the filter accepts. */
  private floatScan(memory: ScanMemory, topK: number, accepts: ((slot: number) => boolean) | null): VectorMatch[] {
    let count = 0;
    for (let slot = 0; slot < this.size; slot++) if (!accepts || accepts(slot)) memory.slots[count++] = slot;
    return this.best(memory, count, topK);
  }

  /** The best topK by float32 cosine among the first `count` slots of `memory.slots`. */
  private best(memory: ScanMemory, count: number, topK: number): VectorMatch[] {
    memory.dots(count);
    const { slots, scores } = memory;
    // The best topK so far, best first; a full sort of every score would cost more than the scan.
    const best: VectorMatch[] = [];
    for (let i = 0; i < count; i++) {
      const score = scores[i]!;
      if (best.length === topK && score <= best[topK - 1]!.score) continue;
      let at = best.length;
      while (at > 0 && best[at - 1]!.score < score) at--;
      best.splice(at, 0, { id: this.ids[slots[i]!]!, score });
      if (best.length > topK) best.pop();
    }
    return best;
  }

  /**
   * Puts in `memory.slots` the (at most) `depth` slots whose sign codes are nearest the query's,
   * ties at the cut-off distance broken by slot order, and returns how many. One pass (kernels.wat)
   * computes every distance and a histogram of them, so the cut-off is found without sorting.
   */
  private nearestCodes(memory: ScanMemory, depth: number, accepts: ((slot: number) => boolean) | null): number {
    const { distances, histogram, slots } = memory;
    const n = this.size;
    signCodeInto(memory.query, memory.queryCode);
    memory.hamming(n);
    if (accepts)
      for (let slot = 0; slot < n; slot++)
        if (!accepts(slot)) {
          histogram[distances[slot]!]!--;
          distances[slot] = REJECTED;
        }
    let cutoff = 0;
    let below = 0;
    while (cutoff < histogram.length - 1 && below + histogram[cutoff]! < depth) below += histogram[cutoff++]!;
    let atCutoff = Math.min(depth - below, histogram[cutoff]!);
    let next = 0;
    for (let slot = 0; slot < n; slot++) {
      const d = distances[slot]!;
      if (d < cutoff) slots[next++] = slot;
      else if (d === cutoff && atCutoff > 0) {
        slots[next++] = slot;
        atCutoff--;
      }
    }
    return next;
  }

  private grow(): void {
    const old = this.memory;
    const capacity = old ? Math.max(Math.ceil(old.capacity * GROWTH), 64) : Math.max(this.initialCapacity, 1);
    const memory = new ScanMemory(this.dimensions, this.words, capacity);
    if (old) {
      memory.vectors.set(old.vectors);
      memory.codes.set(old.codes);
    }
    this.memory = memory;
  }
}

/** One bit per dimension, set where the component is positive. */
export function signCodeInto(unit: Float32Array, code: Uint32Array): void {
  code.fill(0);
  for (let i = 0; i < unit.length; i++) if (unit[i]! > 0) code[i >>> 5]! |= 1 << (i & 31);
}

/** `vector` scaled to unit length, written into `out` (of the same length). */
export function normalizeInto(vector: ArrayLike<number>, out: Float32Array): void {
  if (vector.length !== out.length) throw new RangeError(`a ${vector.length}-d vector in a ${out.length}-d snapshot`);
  let norm = 0;
  for (let i = 0; i < out.length; i++) norm += vector[i]! * vector[i]!;
  norm = Math.sqrt(norm) || 1;
  for (let i = 0; i < out.length; i++) out[i] = vector[i]! / norm;
}
