/**
 * The WebAssembly scan kernels (src/adapters/vectors/kernels.wat), run in workerd, against plain
 * JavaScript: every code and row length they handle in parts (an odd word count, dimensions not
 * a multiple of eight).
 */
import { describe, expect, it } from "vitest";
import { ScanMemory } from "../../src/adapters/vectors/scan-memory";
import { seededNumbers } from "../support/seeded";

const random = seededNumbers;

const popcount = (x: number) => {
  let bits = 0;
  for (let v = x >>> 0; v; v &= v - 1) bits++;
  return bits;
};

describe("ScanMemory's kernels", () => {
  it.each([1, 3, 16])("count the bits two %i-word sign codes differ in, and how many codes are at each distance", (words) => {
    const n = 37;
    const memory = new ScanMemory(words * 32, words, n);
    const words32 = (seed: number) => random(words, seed).map((x) => Math.floor((x + 0.5) * 2 ** 32) >>> 0);
    memory.queryCode.set(words32(1));
    for (let slot = 0; slot < n; slot++) memory.codes.set(words32(100 + slot), slot * words);
    memory.histogram.fill(7); // a previous query's counts
    memory.hamming(n);
    const expected = Array.from({ length: n }, (_, slot) =>
      memory.queryCode.reduce((d, q, k) => d + popcount(q ^ memory.codes[slot * words + k]!), 0),
    );
    expect([...memory.distances]).toEqual(expected);
    const histogram = new Array<number>(words * 32 + 1).fill(0);
    for (const d of expected) histogram[d]!++;
    expect([...memory.histogram]).toEqual(histogram);
  });

  it.each([3, 8, 70, 512])("score the listed slots of %i-d vectors as a float64 dot product does, to float32 precision", (dimensions) => {
    const capacity = 20;
    const memory = new ScanMemory(dimensions, Math.ceil(dimensions / 32), capacity);
    const rows = Array.from({ length: capacity }, (_, slot) => random(dimensions, 10 + slot));
    rows.forEach((row, slot) => memory.vectors.set(row, slot * dimensions));
    const query = random(dimensions, 5);
    memory.query.set(query);
    const listed = [19, 0, 7, 7, 3];
    memory.slots.set(listed);
    memory.scores.fill(-99);
    memory.dots(listed.length);
    listed.forEach((slot, i) => {
      const f32 = Float32Array.from(rows[slot]!);
      const q32 = Float32Array.from(query);
      const exact = f32.reduce((sum, x, k) => sum + x * q32[k]!, 0);
      expect(memory.scores[i]).toBeCloseTo(exact, 5);
    });
    expect(memory.scores[listed.length]).toBe(-99);
  });
});
