import { describe, expect, it } from "vitest";
import { fitLogisticTerms, termsLogit } from "../../src/core/base/logistic-terms";

// Rows where the word "ask" marks the positive class and "act" the negative one; the dense feature is noise.
const rows = Array.from({ length: 40 }, (_, i) => ({
  x: [(i % 5) / 5],
  terms: i % 2 === 0 ? ["ask", "shared"] : ["act", "shared"],
  y: i % 2 === 0 ? 1 : 0,
}));

describe("fitLogisticTerms: logistic regression over dense features and word terms", () => {
  it("learns the terms that tell the classes apart", () => {
    const model = fitLogisticTerms(rows, { l2Terms: 0.1 });
    expect(model.terms.ask).toBeGreaterThan(1);
    expect(model.terms.act).toBeLessThan(-1);
    expect(termsLogit(model, [0.4], ["ask"])).toBeGreaterThan(0);
    expect(termsLogit(model, [0.4], ["act"])).toBeLessThan(0);
  });

  it("gives no weight to a term seen in fewer rows than minCount", () => {
    const model = fitLogisticTerms([...rows, { x: [0], terms: ["once"], y: 1 }], { minCount: 2 });
    expect(model.terms.once).toBeUndefined();
  });

  it("keeps no term whose weight is below minWeight", () => {
    // "shared" is in every row: the bias carries it and its own weight stays near 0.
    expect(fitLogisticTerms(rows, { l2Terms: 0.1, minWeight: 0 }).terms.shared).toBeDefined();
    const model = fitLogisticTerms(rows, { l2Terms: 0.1, minWeight: 0.1 });
    expect(model.terms.shared).toBeUndefined();
    expect(Object.values(model.terms).every((w) => Math.abs(w) >= 0.1)).toBe(true);
  });

  it("shrinks the term weights as their penalty grows", () => {
    const loose = fitLogisticTerms(rows, { l2Terms: 0.1 });
    const tight = fitLogisticTerms(rows, { l2Terms: 10 });
    expect(Math.abs(tight.terms.ask ?? 0)).toBeLessThan(Math.abs(loose.terms.ask!));
  });

  it("weighs rows: a heavier class pulls the bias its way", () => {
    const unmarked = rows.map((r) => ({ ...r, terms: [] }));
    const heavyPositive = fitLogisticTerms(
      unmarked.map((r) => ({ ...r, w: r.y === 1 ? 3 : 1 })),
      {},
    );
    expect(heavyPositive.bias).toBeGreaterThan(0.5);
  });
});
