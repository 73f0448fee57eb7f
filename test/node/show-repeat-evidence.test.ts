// In Node: scripts/repeat-evidence.mjs loads the shared fitting math of src/core/calibration/fit.ts through esbuild.
import { describe, expect, it } from "vitest";
// @ts-expect-error: plain ESM module shared with `npm run calibrate -- --repeat --evidence`, no type declarations
import * as evidence from "../../scripts/repeat-evidence.mjs";

const {
  centeredCosine,
  differingWords,
  documentFrequencies,
  fitLogistic,
  idf,
  idfOverlap,
  lengthRatio,
  localScaledCosine,
  logit,
  neighbourMean,
  numberMismatch,
  opening,
  operatingPoints,
  symmetricDifference,
} = evidence;

// A show about Gmail: "gmail" is in every question, so it says nothing about which question it is.
const reference = documentFrequencies([
  ["gmail", "filter", "label"],
  ["gmail", "delete", "inbox"],
  ["gmail", "search", "inbox"],
  ["gmail", "export", "text"],
]);

describe("candidate repeat evidence (scripts/repeat-evidence.mjs)", () => {
  it("weighs a term by its rarity in the reference", () => {
    expect(idf("gmail", reference)).toBeCloseTo(Math.log(5 / 5) + 1, 10);
    expect(idf("filter", reference)).toBeGreaterThan(idf("inbox", reference));
    expect(idf("never-seen", reference)).toBeCloseTo(Math.log(5) + 1, 10);
  });

  it("counts a shared topic word less than a shared key term", () => {
    const topicOnly = idfOverlap(["gmail", "delete"], ["gmail", "export"], reference);
    const keyTerm = idfOverlap(["gmail", "delete"], ["mail", "delete"], reference);
    expect(keyTerm).toBeGreaterThan(topicOnly);
    expect(idfOverlap(["a", "b"], ["b", "a"], reference)).toBeCloseTo(1, 10);
    expect(idfOverlap([], ["a"], reference)).toBe(0);
  });

  it("measures the differing words: their share of the IDF mass and the rarest one", () => {
    expect(differingWords(["gmail", "filter"], ["gmail", "filter"], reference)).toEqual({ share: 0, rarest: 0 });
    const d = differingWords(["gmail", "filter"], ["gmail", "search"], reference);
    expect(d.share).toBeGreaterThan(0.5);
    expect(d.rarest).toBeCloseTo(idf("filter", reference) / (Math.log(5) + 1), 10);
    expect(symmetricDifference(["a", "b"], ["b", "c"])).toEqual({ onlyA: ["a"], onlyB: ["c"] });
  });

  it("reads numbers, openings and lengths", () => {
    expect(numberMismatch("Dose of 50 mg?", "Dose of 50 mg daily?")).toBe(0);
    expect(numberMismatch("Dose of 50 mg?", "Dose of 100 mg?")).toBe(1);
    expect(opening("So, how do I export mail?")).toBe("how");
    expect(opening("Exporting mail.")).toBe("");
    expect(lengthRatio(["a", "b"], ["a", "b", "c", "d"])).toBe(0.5);
  });

  it("scales a cosine by the local density (CSLS) and centres vectors on the reference mean", () => {
    const unit = (x: number, y: number) => {
      const n = Math.hypot(x, y);
      return [x / n, y / n];
    };
    const crowd = [unit(1, 0), unit(1, 0.1), unit(1, 0.2), unit(1, -0.1)];
    const dense = neighbourMean(unit(1, 0.05), crowd, { localNeighbours: 2 });
    const sparse = neighbourMean(unit(0, 1), crowd, { localNeighbours: 2 });
    expect(dense).toBeGreaterThan(sparse);
    expect(localScaledCosine(0.9, dense, dense)).toBeLessThan(localScaledCosine(0.9, sparse, sparse));
    expect(centeredCosine([1, 1], [1, -1], [1, 0])).toBeCloseTo(-1, 10);
  });

  it("fits a logistic model that ranks separable pairs perfectly with its default parameters", () => {
    const rows = Array.from({ length: 60 }, (_, i) => ({ y: i % 2, x: (i % 2) + ((i * 7) % 10) / 40, noise: ((i * 13) % 7) / 7 }));
    const model = fitLogistic(rows, ["x", "noise"]);
    expect(model.weights.x).toBeGreaterThan(0);
    expect(Math.abs(model.weights.noise)).toBeLessThan(model.weights.x);
    const points = operatingPoints(rows, (r: object) => logit(r, model));
    expect(points).toEqual({ auc: 1, recallAtPrecision: 1, precisionAtRecall: 1 });
  });

  it("reports the best recall at the precision floor, all ties taken together", () => {
    const rows = [
      { y: 1, s: 0.9 },
      { y: 1, s: 0.8 },
      { y: 0, s: 0.8 },
      { y: 1, s: 0.5 },
      { y: 0, s: 0.1 },
    ];
    const points = operatingPoints(rows, (r: { s: number }) => r.s);
    expect(points.recallAtPrecision).toBeCloseTo(1 / 3, 10); // at 0.8 the tie brings P to 2/3
    expect(points.precisionAtRecall).toBeCloseTo(3 / 4, 10); // recall ≥ 0.8 needs all three: P 3/4
  });
});
