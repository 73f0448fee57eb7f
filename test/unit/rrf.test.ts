import { describe, expect, it } from "vitest";
import { fuseRrf, RRF_K } from "../../src/ranking/rrf";

describe("fuseRrf", () => {
  it("scores weight / (k + rank) per list and sums across lists", () => {
    const fused = fuseRrf([
      { name: "bm25", ids: ["a", "b"], weight: 0.4 },
      { name: "vector", ids: ["b", "c"], weight: 0.6 },
    ]);
    expect(fused.map((h) => h.id)).toEqual(["b", "c", "a"]);
    expect(fused[0]!.score).toBeCloseTo(0.4 / (RRF_K + 2) + 0.6 / (RRF_K + 1), 12);
    expect(fused[0]!.sources).toEqual(["bm25", "vector"]);
    expect(fused[1]!.score).toBeCloseTo(0.6 / (RRF_K + 2), 12);
  });

  it("keeps first-seen order on ties, so results are stable", () => {
    const fused = fuseRrf([
      { name: "x", ids: ["a", "b"], weight: 1 },
      { name: "y", ids: ["b", "a"], weight: 1 },
    ]);
    expect(fused.map((h) => h.id)).toEqual(["a", "b"]);
  });

  it("counts an id once per list even if a list repeats it", () => {
    const fused = fuseRrf([{ name: "x", ids: ["a", "a"], weight: 1 }]);
    expect(fused).toEqual([{ id: "a", score: 1 / (RRF_K + 1), sources: ["x"] }]);
  });

  it("returns nothing for no lists", () => {
    expect(fuseRrf([])).toEqual([]);
  });
});
