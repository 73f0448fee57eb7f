/**
 * A new isolate's first answers over a large collection, before its snapshot is loaded. Loading
 * 40k vectors copies 80 MB of stored pages (160–350 ms on the local stack, more over KV's network);
 * the base's sign codes are 1/32 of that. So a first query ranks every row by the Hamming distance
 * of its code to the query's (the two-stage scan's first stage, snapshot.ts) and scores only the
 * best `rescoreDepth(topK)` rows in float32, their vectors read from D1 by id: the candidates and
 * the cosines the snapshot's own two-stage scan gives. The snapshot loads after the response
 * (exact-d1.ts). Pure: the codes come from snapshot-base.ts, the vectors from the caller.
 */
import { signCodeInto } from "./snapshot";

/**
 * A collection this large, with a base of the current version, is answered from the base's sign
 * codes until its snapshot, loading after the response, is in. Below it a load costs a few
 * milliseconds. A load that finds such a collection's base stale stores a new one (load.ts).
 */
export const FIRST_ANSWER_MIN_ROWS = 4096;

/** A stored base's rows as the first stage reads them: ids in the codes' order. */
export interface CodeIndex {
  ids: readonly string[];
  codes: Uint32Array;
  dimensions: number;
}

/** The (at most) `depth` ids whose sign codes are nearest the query's, ties at the cut-off broken by row order. */
export function nearestByCode({ ids, codes, dimensions }: CodeIndex, query: ArrayLike<number>, depth: number): string[] {
  const words = Math.ceil(dimensions / 32);
  const queryCode = new Uint32Array(words);
  signCodeInto(Float32Array.from(query), queryCode);
  const distances = new Uint16Array(ids.length);
  const histogram = new Uint32Array(dimensions + 1);
  for (let row = 0, at = 0; row < ids.length; row++) {
    let d = 0;
    for (let w = 0; w < words; w++, at++) d += bitCount(codes[at]! ^ queryCode[w]!);
    distances[row] = d;
    histogram[d]!++;
  }
  let cutoff = 0;
  let below = 0;
  while (cutoff < dimensions && below + histogram[cutoff]! < depth) below += histogram[cutoff++]!;
  let atCutoff = Math.min(depth - below, histogram[cutoff]!);
  const nearest: string[] = [];
  for (let row = 0; row < ids.length; row++) {
    const d = distances[row]!;
    if (d < cutoff || (d === cutoff && atCutoff-- > 0)) nearest.push(ids[row]!);
  }
  return nearest;
}

function bitCount(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return Math.imul((x + (x >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24;
}
