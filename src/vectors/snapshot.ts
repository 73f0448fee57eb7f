/**
 * An in-memory copy of one (tenant, collection)'s vectors: unit-normalized and packed in one
 * Float32Array, so an exact scan is a tight dot-product loop (10k × 512-d ≈ a few ms). Pure data
 * structure; src/vectors/exact-d1.ts decides when a snapshot is current.
 */
import type { VectorMatch, VectorMetadata } from "./port";

export class VectorSnapshot {
  private ids: string[] = [];
  private metadata: VectorMetadata[] = [];
  private slots = new Map<string, number>();
  private data: Float32Array;

  constructor(
    readonly dimensions: number,
    public epoch: string,
    public counter: number,
    capacity = 64,
  ) {
    this.data = new Float32Array(capacity * dimensions);
  }

  get size(): number {
    return this.ids.length;
  }

  upsert(id: string, vector: ArrayLike<number>, metadata: VectorMetadata): void {
    let slot = this.slots.get(id);
    if (slot === undefined) {
      slot = this.ids.length;
      if ((slot + 1) * this.dimensions > this.data.length) this.grow();
      this.ids.push(id);
      this.metadata.push(metadata);
      this.slots.set(id, slot);
    } else {
      this.metadata[slot] = metadata;
    }
    const unit = normalized(vector);
    this.data.set(unit, slot * this.dimensions);
  }

  delete(id: string): void {
    const slot = this.slots.get(id);
    if (slot === undefined) return;
    const last = this.ids.length - 1;
    if (slot !== last) {
      // Move the last vector into the hole.
      const lastId = this.ids[last]!;
      this.data.copyWithin(slot * this.dimensions, last * this.dimensions, (last + 1) * this.dimensions);
      this.ids[slot] = lastId;
      this.metadata[slot] = this.metadata[last]!;
      this.slots.set(lastId, slot);
    }
    this.ids.pop();
    this.metadata.pop();
    this.slots.delete(id);
  }

  /** The topK by cosine among the vectors whose metadata equals every filter entry. */
  query(vector: ArrayLike<number>, topK: number, filter: VectorMetadata = {}): VectorMatch[] {
    const q = normalized(vector);
    const conditions = Object.entries(filter);
    // The best topK so far, best first; a full sort of every score would cost more than the scan.
    const best: VectorMatch[] = [];
    for (let slot = 0; slot < this.ids.length; slot++) {
      const meta = this.metadata[slot]!;
      if (conditions.length > 0 && !conditions.every(([k, v]) => meta[k] === v)) continue;
      const score = this.dot(q, slot);
      if (best.length === topK && score <= best[topK - 1]!.score) continue;
      let at = best.length;
      while (at > 0 && best[at - 1]!.score < score) at--;
      best.splice(at, 0, { id: this.ids[slot]!, score });
      if (best.length > topK) best.pop();
    }
    return best;
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

  private dot(q: Float32Array, slot: number): number {
    const data = this.data;
    const offset = slot * this.dimensions;
    const n = this.dimensions;
    // Four running sums: shorter dependency chains, measurably faster in V8 than one.
    let a = 0;
    let b = 0;
    let c = 0;
    let d = 0;
    let i = 0;
    for (; i + 3 < n; i += 4) {
      a += q[i]! * data[offset + i]!;
      b += q[i + 1]! * data[offset + i + 1]!;
      c += q[i + 2]! * data[offset + i + 2]!;
      d += q[i + 3]! * data[offset + i + 3]!;
    }
    for (; i < n; i++) a += q[i]! * data[offset + i]!;
    return a + b + c + d;
  }

  private grow(): void {
    const bigger = new Float32Array(Math.max(this.data.length * 2, this.dimensions * 64));
    bigger.set(this.data);
    this.data = bigger;
  }
}

function normalized(vector: ArrayLike<number>): Float32Array {
  const out = Float32Array.from(vector);
  let norm = 0;
  for (const x of out) norm += x * x;
  norm = Math.sqrt(norm) || 1;
  for (let i = 0; i < out.length; i++) out[i]! /= norm;
  return out;
}
