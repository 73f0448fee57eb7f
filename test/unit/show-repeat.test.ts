import { describe, expect, it } from "vitest";
import { calibrate } from "../../src/core/calibration/calibration";
import { calibrationFor, repeatModelFor, shippedRepeatModels } from "../../src/core/scale/registry";
import { lexicalTerms } from "../../src/core/ranking/lexical";
import { DEFAULT_NOVELTY_CONFIG } from "../../src/core/novelty/novelty-config";
import { checkQuestion } from "../../src/core/novelty/novelty-history";
import { rankCandidates } from "../../src/core/novelty/novelty-rank";
import { lexicalEvidence, parseRepeatModel, type RepeatModel, repeatSimilarity, repeatTerms } from "../../src/core/ranking/repeat";

const model: RepeatModel = {
  model: "m",
  method: "test",
  fittedOn: "test",
  lexicalWeight: 0.5,
  knots: [
    [0, 0],
    [1, 0.8],
    [1.5, 1],
  ],
};

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
    expect(() => parseRepeatModel({ ...model, lexicalWeight: 3 })).toThrow(/lexicalWeight/);
    expect(() =>
      parseRepeatModel({
        ...model,
        knots: [
          [0, 0.5],
          [0.5, 0.2],
        ],
      }),
    ).toThrow(/monotone/);
    expect(() =>
      parseRepeatModel({
        ...model,
        knots: [
          [0, 0],
          [1.6, 1],
        ],
      }),
    ).toThrow(/range/);
    expect(() => parseRepeatModel({ model: "m" })).toThrow(/strings/);
  });
});

describe("the show pipeline with a repeat model", () => {
  const NOW = Date.UTC(2025, 9, 19, 10, 0);
  // Two candidates at the same raw cosine (0.75) to the question asked 5 minutes ago: only the
  // one that shares its words is a repeat.
  const unit = (s: number, axis: number) => {
    const v = new Float32Array(4);
    v[0] = s;
    v[axis] = Math.sqrt(1 - s * s);
    return v;
  };
  const asked = {
    id: "q1",
    text: "How do I delete my Facebook account?",
    vector: unit(1, 1),
    terms: lexicalTerms("How do I delete my Facebook account?"),
    askedAt: NOW - 5 * 60_000,
    wasUsed: false,
  };
  const reworded = "Deleting a Facebook account: how?";
  const neighbour = "Can I hide my friends list from strangers?";
  const candidate = (text: string, axis: number) => ({
    text,
    vector: unit(0.75, axis),
    terms: lexicalTerms(text),
    model: "gpt-4o",
    confidence: 0.8,
  });

  it("blocks the rewording and picks the neighbour, reporting the repeat similarity and the raw cosine", () => {
    const out = rankCandidates({
      candidates: [candidate(reworded, 2), candidate(neighbour, 3)],
      history: [asked],
      now: NOW,
      config: { ...DEFAULT_NOVELTY_CONFIG },
      calibration: null,
      repeat: model,
      topN: 5,
    });
    expect(out.filtered).toMatchObject([{ text: reworded, reason: "similar_to_recent", rawCosine: expect.closeTo(0.75, 6) }]);
    expect(out.filtered[0]!.similarity).toBeCloseTo(
      repeatSimilarity(out.filtered[0]!.rawCosine!, lexicalEvidence(lexicalTerms(reworded), asked.terms), model, null),
      10,
    );
    expect(out.picks.map((p) => p.text)).toEqual([neighbour]);
    // Without the repeat model both sit at the same calibrated cosine: no way to tell them apart.
    const cosineOnly = rankCandidates({
      candidates: [candidate(reworded, 2), candidate(neighbour, 3)],
      history: [asked],
      now: NOW,
      config: { ...DEFAULT_NOVELTY_CONFIG },
      calibration: null,
      topN: 5,
    });
    expect(cosineOnly.picks.map((p) => p.text)).toEqual([reworded, neighbour]);
  });

  it("checks a text with the same rule", () => {
    const check = (text: string, axis: number) =>
      checkQuestion(candidate(text, axis), [asked], NOW, { ...DEFAULT_NOVELTY_CONFIG }, null, model);
    expect(check(reworded, 2).isSimilar).toBe(true);
    expect(check(neighbour, 3).isSimilar).toBe(false);
  });
});
