import { describe, expect, it } from "vitest";
import { fuseScores, zScores } from "../../src/core/ranking/fusion";

describe("zScores", () => {
  it("centres and scales the known values, and gives 0 to unknown values and to a constant signal", () => {
    expect(zScores([1, 2, 3])).toEqual([-Math.sqrt(1.5), 0, Math.sqrt(1.5)]);
    expect(zScores([2, null, 4])).toEqual([-1, 0, 1]);
    expect(zScores([0, 0, 0])).toEqual([0, 0, 0]);
    expect(zScores([null, null])).toEqual([0, 0]);
  });
});

describe("fuseScores", () => {
  // a: the only keyword match, an average cosine; b: the nearest by meaning, no keyword; c and d: neither.
  const candidates = [
    { id: "a", lexical: 8, cosine: 0.5 },
    { id: "b", lexical: 0, cosine: 0.8 },
    { id: "c", lexical: 0, cosine: 0.45 },
    { id: "d", lexical: 0, cosine: 0.4 },
  ];

  it("orders by one signal alone at share 0 or 1", () => {
    expect(fuseScores(candidates, 0).map((h) => h.id)[0]).toBe("a");
    expect(fuseScores(candidates, 1).map((h) => h.id)).toEqual(["b", "a", "c", "d"]);
  });

  it("keeps the gaps that ranks lose: a lone strong keyword match beats a moderately nearer vector at share 0.5", () => {
    // RRF would tie a and b (each first in one list); z-scores see a's lexical lead is larger.
    expect(fuseScores(candidates, 0.5).map((h) => h.id)).toEqual(["a", "b", "c", "d"]);
  });

  it("lets the vector decide among candidates that match the same keywords equally", () => {
    const sameWords = [
      { id: "x", lexical: 3, cosine: 0.3 },
      { id: "y", lexical: 3, cosine: 0.7 },
    ];
    expect(fuseScores(sameWords, 0.3).map((h) => h.id)).toEqual(["y", "x"]);
  });

  it("treats a candidate without a vector as average on that signal", () => {
    const fused = fuseScores([{ id: "p", lexical: 1, cosine: null }, ...candidates], 1);
    expect(fused.find((h) => h.id === "p")!.score).toBe(0);
  });
});
