import { describe, expect, it } from "vitest";
import { calibrate } from "../../src/calibration/calibration";
import { calibrationFor, repeatModelFor, shippedRepeatModels } from "../../src/calibration/registry";
import { lexicalTerms } from "../../src/ranking/lexical";
import { lexicalEvidence, parseRepeatModel, type RepeatModel, repeatSimilarity, repeatTerms } from "../../src/ranking/repeat";
// @ts-expect-error: plain ESM module shared with `npm run calibrate -- --repeat`, no type declarations
import * as fit from "../../scripts/repeat-fit.mjs";

const { auc, bootstrap, crossValidatedScores, fitRepeat, pairMetrics, repeatScore } = fit;

const model: RepeatModel = { model: "m", method: "test", fittedOn: "test", lexicalWeight: 0.5, knots: [[0, 0], [1, 0.8], [1.5, 1]] };

describe("repeat evidence", () => {
  it("lets word forms meet: conscious / consciousness share a stem, different words do not", () => {
    const a = lexicalTerms("What evidence supports machine consciousness?");
    const b = lexicalTerms("Can we prove AI systems are conscious?");
    expect(repeatTerms(a)).toContain("cons");
    expect(lexicalEvidence(a, b)).toBeCloseTo(1 / 4, 10);
    expect(lexicalEvidence(lexicalTerms("Will quantum computers break encryption soon?"), b)).toBe(0);
  });

  it("maps raw cosine + weight × lexical through the model's knots", () => {
    expect(repeatSimilarity(0.6, 0.8, model, null)).toBeCloseTo(0.8, 10);
    expect(repeatSimilarity(0.6, 0, model, null)).toBeCloseTo(0.48, 10);
  });

  it("falls back to the global calibration of the cosine for a model without a repeat table", () => {
    const calibration = calibrationFor("use-lite-512");
    expect(repeatSimilarity(0.61, 1, null, calibration)).toBe(calibrate(0.61, calibration));
    expect(repeatModelFor("@cf/baai/bge-m3")).toBeNull();
  });

  it("ships a valid, monotone use-lite-512 table whose block line needs more than cosine alone", () => {
    const shipped = repeatModelFor("use-lite-512")!;
    expect(shippedRepeatModels()).toContain(shipped);
    for (let x = -1; x <= 1 + shipped.lexicalWeight; x += 0.01) {
      expect(repeatSimilarity(x, 0, shipped, null)).toBeLessThanOrEqual(repeatSimilarity(x + 0.01, 0, shipped, null));
    }
    // Issue 14: a different question at raw 0.614 with no shared term is not a repeat any more.
    expect(repeatSimilarity(0.614, 0, shipped, null)).toBeLessThan(0.7);
    expect(repeatSimilarity(0.95, 0.8, shipped, null)).toBeGreaterThan(0.85);
  });

  it("rejects malformed tables", () => {
    expect(() => parseRepeatModel({ ...model, lexicalWeight: 2 })).toThrow(/lexicalWeight/);
    expect(() => parseRepeatModel({ ...model, knots: [[0, 0.5], [0.5, 0.2]] })).toThrow(/monotone/);
    expect(() => parseRepeatModel({ ...model, knots: [[0, 0], [1.6, 1]] })).toThrow(/range/);
    expect(() => parseRepeatModel({ model: "m" })).toThrow(/strings/);
  });
});

describe("repeat fit (scripts/repeat-fit.mjs)", () => {
  // Duplicates sit high in cosine and share words; related pairs sit high in cosine only.
  const pairs = Array.from({ length: 120 }, (_, i) => {
    const label = ["paraphrase", "related", "unrelated"][i % 3];
    const jitter = ((i * 37) % 17) / 100;
    const raw = label === "paraphrase" ? 0.7 + jitter : label === "related" ? 0.65 + jitter : 0.2 + jitter;
    const lex = label === "paraphrase" ? 0.5 + jitter : label === "related" ? 0.05 : 0;
    return { raw, lex, label, y: label === "paraphrase" ? 1 : 0, group: `g${Math.floor(i / 3)}` };
  });

  it("computes AUC with ties counted half", () => {
    expect(auc([{ y: 1, s: 2 }, { y: 0, s: 1 }], (p: { s: number }) => p.s)).toBe(1);
    expect(auc([{ y: 1, s: 1 }, { y: 0, s: 1 }], (p: { s: number }) => p.s)).toBe(0.5);
  });

  it("picks the lexical weight that separates duplicates from neighbours, and a monotone map", () => {
    const m = fitRepeat(pairs);
    expect(m.lexicalWeight).toBeGreaterThan(0);
    for (let i = 1; i < m.knots.length; i++) {
      expect(m.knots[i][0]).toBeGreaterThan(m.knots[i - 1][0]);
      expect(m.knots[i][1]).toBeGreaterThan(m.knots[i - 1][1]);
    }
    const metrics = pairMetrics(pairs, (p: object) => repeatScore(p, m));
    expect(metrics.duplicate.precision).toBe(1);
    expect(metrics.bands.reduce((s: number, b: { duplicate: number; different: number }) => s + b.duplicate + b.different, 0)).toBe(pairs.length);
  });

  it("scores every pair out of fold, and bootstraps deterministically", () => {
    const { scores, models } = crossValidatedScores(pairs, { k: 4 });
    expect(models).toHaveLength(4);
    expect(scores.size).toBe(pairs.length);
    const stat = (s: { y: number }[]) => s.filter((p) => p.y).length / s.length;
    expect(bootstrap(pairs, stat, { samples: 50 })).toEqual(bootstrap(pairs, stat, { samples: 50 }));
  });
});
