import { describe, expect, it } from "vitest";
import { bootstrapInterval, meanMetrics, scoreQuery } from "../../bench/support/metrics";

describe("retrieval metrics", () => {
  it("computes NDCG@10 as worked out by hand", () => {
    // Relevant: a, b. Retrieved: x, a, y, b.
    // DCG = 1/log2(3) + 1/log2(5) = 0.63093 + 0.43068 = 1.06161
    // IDCG = 1/log2(2) + 1/log2(3) = 1 + 0.63093 = 1.63093
    // NDCG = 1.06161 / 1.63093 = 0.65092
    const m = scoreQuery(["x", "a", "y", "b"], ["a", "b"]);
    expect(m.ndcg).toBeCloseTo(0.65092, 4);
    expect(m.recall).toBe(1);
    expect(m.mrr).toBe(0.5);
  });

  it("counts only the top k", () => {
    const retrieved = Array.from({ length: 12 }, (_, i) => `d${i}`);
    expect(scoreQuery(retrieved, ["d11"], 10)).toEqual({ ndcg: 0, recall: 0, mrr: 0 });
    expect(scoreQuery(retrieved, ["d0"], 10)).toEqual({ ndcg: 1, recall: 1, mrr: 1 });
  });

  it("caps the ideal at k relevant ids and handles none", () => {
    const relevant = Array.from({ length: 15 }, (_, i) => `r${i}`);
    expect(scoreQuery(relevant.slice(0, 10), relevant, 10).ndcg).toBeCloseTo(1, 12);
    expect(scoreQuery(relevant.slice(0, 10), relevant, 10).recall).toBeCloseTo(10 / 15, 12);
    expect(scoreQuery(["a"], [])).toEqual({ ndcg: 0, recall: 0, mrr: 0 });
  });

  it("averages over queries", () => {
    expect(
      meanMetrics([
        { ndcg: 1, recall: 1, mrr: 1 },
        { ndcg: 0, recall: 0.5, mrr: 0 },
      ]),
    ).toEqual({ ndcg: 0.5, recall: 0.75, mrr: 0.5 });
  });

  it("brackets the mean with a bootstrap interval that narrows with more queries and is exact for a constant", () => {
    const few = bootstrapInterval([0, 1, 0, 1]);
    const many = bootstrapInterval(Array.from({ length: 400 }, (_, i) => i % 2));
    expect(few.mean).toBe(0.5);
    expect(few.low).toBeLessThan(0.5);
    expect(few.high).toBeGreaterThan(0.5);
    expect(many.high - many.low).toBeLessThan((few.high - few.low) / 4);
    const constant = bootstrapInterval([0.7, 0.7, 0.7]);
    for (const x of [constant.mean, constant.low, constant.high]) expect(x).toBeCloseTo(0.7, 12);
  });

  it("bootstraps a paired difference on the same queries", () => {
    const a = [0.9, 0.8, 1, 0.7, 0.95, 0.85];
    const b = a.map((v) => v - 0.1);
    const d = bootstrapInterval(a, { paired: b });
    expect(d.mean).toBeCloseTo(0.1, 12);
    expect(d.low).toBeCloseTo(0.1, 12);
    expect(d.high).toBeCloseTo(0.1, 12);
  });
});
