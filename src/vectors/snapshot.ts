/**
 * An in-memory copy of one (tenant, collection)'s vectors, kept in two layouts the scan reads
 * contiguously: the unit-normalized float32 vectors, and their sign codes (one bit per
 * dimension: 16 uint32 words at 512-d, 1/32 of the bytes). Pure data structure;
 * src/vectors/exact-d1.ts decides when a snapshot is current.
 *
 * A query over a small collection (or for many results) is a plain float scan. Over a larger
 * one it has two stages: every vector is ranked by the Hamming distance between its sign code
 * and the query's (the signs of two vectors agree on a share of dimensions that grows with their
 * cosine), and only the best `rescoreDepth(topK)` are scored in float32. Returned scores are therefore exact
 * cosines; what the first stage can cost is recall, which `npm run bench -- vector` measures
 * against the full float ranking on real embeddings (≥ 0.99 required).
 */
import type { VectorMatch, VectorMetadata } from "./port";

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

/** Set bits of every 16-bit value: two lookups count a 32-bit word. */
const POPCOUNT16 = (() => {
  const table = new Uint8Array(1 << 16);
  for (let i = 1; i < table.length; i++) table[i] = (i & 1) + table[i >> 1]!;
  return table;
})();
/** Marks a slot the filter rejected in the distance buffer. */
const REJECTED = 0xffff;

export class VectorSnapshot {
  private ids: string[] = [];
  private metadata: VectorMetadata[] = [];
  private slots = new Map<string, number>();
  private readonly words: number;
  private data: Float32Array;
  private codes: Uint32Array;
  /** Per-slot Hamming distances of the current query, reused across queries. */
  private distances: Uint16Array;

  constructor(
    readonly dimensions: number,
    public epoch: string,
    public counter: number,
    capacity = 64,
  ) {
    this.words = Math.ceil(dimensions / 32);
    this.data = new Float32Array(capacity * dimensions);
    this.codes = new Uint32Array(capacity * this.words);
    this.distances = new Uint16Array(capacity);
  }

  get size(): number {
    return this.ids.length;
  }

  upsert(id: string, vector: ArrayLike<number>, metadata: VectorMetadata): void {
    const slot = this.slotFor(id, metadata);
    const unit = normalized(vector);
    this.data.set(unit, slot * this.dimensions);
    this.codes.set(signCode(unit, this.words), slot * this.words);
  }

  /**
   * Adds or replaces a vector already unit-normalized with its sign code (rows of a stored page,
   * src/vectors/packed.ts): copied as they are.
   */
  upsertPacked(id: string, unit: Float32Array, code: Uint32Array, metadata: VectorMetadata): void {
    const slot = this.slotFor(id, metadata);
    this.data.set(unit, slot * this.dimensions);
    this.codes.set(code, slot * this.words);
  }

  /** The slots' ids and their rows, in slot order (views, valid until the next write): what a stored page packs. */
  rows(): { ids: readonly string[]; metadata: readonly VectorMetadata[]; vectors: Float32Array; codes: Uint32Array } {
    return {
      ids: this.ids,
      metadata: this.metadata,
      vectors: this.data.subarray(0, this.size * this.dimensions),
      codes: this.codes.subarray(0, this.size * this.words),
    };
  }

  delete(id: string): void {
    const slot = this.slots.get(id);
    if (slot === undefined) return;
    const last = this.ids.length - 1;
    if (slot !== last) {
      // Move the last vector into the hole.
      const lastId = this.ids[last]!;
      this.data.copyWithin(slot * this.dimensions, last * this.dimensions, (last + 1) * this.dimensions);
      this.codes.copyWithin(slot * this.words, last * this.words, (last + 1) * this.words);
      this.ids[slot] = lastId;
      this.metadata[slot] = this.metadata[last]!;
      this.slots.set(lastId, slot);
    }
    this.ids.pop();
    this.metadata.pop();
    this.slots.delete(id);
  }

  private slotFor(id: string, metadata: VectorMetadata): number {
    let slot = this.slots.get(id);
    if (slot === undefined) {
      slot = this.ids.length;
      if (slot === this.distances.length) this.grow();
      this.ids.push(id);
      this.metadata.push(metadata);
      this.slots.set(id, slot);
    } else {
      this.metadata[slot] = metadata;
    }
    return slot;
  }

  /** The topK by cosine among the vectors whose metadata equals every filter entry. */
  query(vector: ArrayLike<number>, topK: number, filter: VectorMetadata = {}): VectorMatch[] {
    const q = normalized(vector);
    const conditions = Object.entries(filter);
    const accepts = conditions.length === 0 ? null : (slot: number) => conditions.every(([k, v]) => this.metadata[slot]![k] === v);
    if (usesFloatScanOnly(this.size, topK, this.dimensions)) return this.floatScan(q, topK, this.size, (i) => i, accepts);
    const candidates = this.nearestCodes(q, rescoreDepth(topK), accepts);
    return this.floatScan(q, topK, candidates.length, (i) => candidates[i]!, null);
  }

  /** The exact float32 ranking of every vector (the reference the two-stage scan is measured against). */
  exactQuery(vector: ArrayLike<number>, topK: number): VectorMatch[] {
    return this.floatScan(normalized(vector), topK, this.size, (i) => i, null);
  }

  similarities(vector: ArrayLike<number>, ids: readonly string[]): Map<string, number> {
    const q = normalized(vector);
    const scores = new Map<string, number>();
    for (const id of ids) {
      const slot = this.slots.get(id);
      if (slot !== undefined) scores.set(id, this.dot(q, slot));
    }
    return scores;
  }

  /** The best topK by float32 cosine among `count` slots given by `slotAt`. */
  private floatScan(
    q: Float32Array,
    topK: number,
    count: number,
    slotAt: (i: number) => number,
    accepts: ((slot: number) => boolean) | null,
  ): VectorMatch[] {
    // The best topK so far, best first; a full sort of every score would cost more than the scan.
    const best: VectorMatch[] = [];
    for (let i = 0; i < count; i++) {
      const slot = slotAt(i);
      if (accepts && !accepts(slot)) continue;
      const score = this.dot(q, slot);
      if (best.length === topK && score <= best[topK - 1]!.score) continue;
      let at = best.length;
      while (at > 0 && best[at - 1]!.score < score) at--;
      best.splice(at, 0, { id: this.ids[slot]!, score });
      if (best.length > topK) best.pop();
    }
    return best;
  }

  /**
   * The `depth` slots whose sign codes are nearest the query's (ties at the cut-off distance
   * broken by slot order). One pass computes every distance and a histogram of them, so the
   * cut-off distance is found without sorting the collection.
   */
  private nearestCodes(q: Float32Array, depth: number, accepts: ((slot: number) => boolean) | null): Int32Array {
    const { codes, words, distances } = this;
    const query = signCode(q, words);
    const histogram = new Uint32Array(words * 32 + 1);
    const n = this.size;
    for (let slot = 0, base = 0; slot < n; slot++, base += words) {
      if (accepts && !accepts(slot)) {
        distances[slot] = REJECTED;
        continue;
      }
      let d = 0;
      for (let k = 0; k < words; k++) {
        const x = codes[base + k]! ^ query[k]!;
        d += POPCOUNT16[x & 0xffff]! + POPCOUNT16[x >>> 16]!;
      }
      distances[slot] = d;
      histogram[d]!++;
    }
    let cutoff = 0;
    let below = 0;
    while (cutoff < histogram.length - 1 && below + histogram[cutoff]! < depth) below += histogram[cutoff++]!;
    let atCutoff = Math.min(depth - below, histogram[cutoff]!);
    const picked = new Int32Array(below + atCutoff);
    let next = 0;
    for (let slot = 0; slot < n; slot++) {
      const d = distances[slot]!;
      if (d < cutoff) picked[next++] = slot;
      else if (d === cutoff && atCutoff > 0) {
        picked[next++] = slot;
        atCutoff--;
      }
    }
    return picked.subarray(0, next);
  }

  private dot(q: Float32Array, slot: number): number {
    const data = this.data;
    const offset = slot * this.dimensions;
    const n = this.dimensions;
    // Eight running sums: shorter dependency chains (measured in Node 20's V8: 1.4× faster than four).
    let a = 0;
    let b = 0;
    let c = 0;
    let d = 0;
    let e = 0;
    let f = 0;
    let g = 0;
    let h = 0;
    let i = 0;
    for (; i + 7 < n; i += 8) {
      const o = offset + i;
      a += q[i]! * data[o]!;
      b += q[i + 1]! * data[o + 1]!;
      c += q[i + 2]! * data[o + 2]!;
      d += q[i + 3]! * data[o + 3]!;
      e += q[i + 4]! * data[o + 4]!;
      f += q[i + 5]! * data[o + 5]!;
      g += q[i + 6]! * data[o + 6]!;
      h += q[i + 7]! * data[o + 7]!;
    }
    for (; i < n; i++) a += q[i]! * data[offset + i]!;
    return a + b + c + d + e + f + g + h;
  }

  private grow(): void {
    const capacity = Math.max(this.distances.length * 2, 64);
    const data = new Float32Array(capacity * this.dimensions);
    data.set(this.data);
    this.data = data;
    const codes = new Uint32Array(capacity * this.words);
    codes.set(this.codes);
    this.codes = codes;
    this.distances = new Uint16Array(capacity);
  }
}

/** One bit per dimension, set where the component is positive. */
function signCode(unit: Float32Array, words: number): Uint32Array {
  const code = new Uint32Array(words);
  for (let i = 0; i < unit.length; i++) if (unit[i]! > 0) code[i >>> 5]! |= 1 << (i & 31);
  return code;
}

function normalized(vector: ArrayLike<number>): Float32Array {
  const out = Float32Array.from(vector);
  let norm = 0;
  for (const x of out) norm += x * x;
  norm = Math.sqrt(norm) || 1;
  for (let i = 0; i < out.length; i++) out[i]! /= norm;
  return out;
}
