import { describe, expect, it } from "vitest";
import { calibrate } from "../../src/calibration/calibration";
import { calibrationFor, repeatModelFor, shippedRepeatModels } from "../../src/calibration/registry";
import { lexicalTerms } from "../../src/ranking/lexical";
import { DEFAULT_NOVELTY_CONFIG } from "../../src/ranking/novelty-config";
import { checkQuestion } from "../../src/ranking/novelty-history";
import { rankCandidates } from "../../src/ranking/novelty-rank";
import { lexicalEvidence, parseRepeatModel, type RepeatModel, repeatSimilarity, repeatTerms } from "../../src/ranking/repeat";
// @ts-expect-error: plain ESM module shared with `npm run calibrate -- --repeat`, no type declarations
import * as fit from "../../scripts/repeat-fit.mjs";

const { SIMULATION_THREADS_HALF, auc, bootstrap, crossValidatedScores, fitRepeat, pairMetrics, repeatScore, simulationHalf } = fit;

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
    expect(
      auc(
        [
          { y: 1, s: 2 },
          { y: 0, s: 1 },
        ],
        (p: { s: number }) => p.s,
      ),
    ).toBe(1);
    expect(
      auc(
        [
          { y: 1, s: 1 },
          { y: 0, s: 1 },
        ],
        (p: { s: number }) => p.s,
      ),
    ).toBe(0.5);
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
    expect(metrics.bands.reduce((s: number, b: { duplicate: number; different: number }) => s + b.duplicate + b.different, 0)).toBe(
      pairs.length,
    );
  });

  it("chooses the lexical weight by the mean AUC of the pair sets, so a small set counts as much as a large one", () => {
    // A large set that needs a heavy lexical weight (its neighbours have the higher cosine) and a
    // small one where shared words mislead (its neighbours share more words than its duplicates).
    const large = Array.from({ length: 120 }, (_, i) => {
      const jitter = ((i * 37) % 17) / 100;
      const duplicate = i % 2 === 0;
      return {
        raw: (duplicate ? 0.5 : 0.8) + jitter,
        lex: duplicate ? 0.6 : 0.2,
        label: duplicate ? "paraphrase" : "related",
        group: `l${i}`,
      };
    });
    const small = Array.from({ length: 12 }, (_, i) => {
      const duplicate = i % 2 === 0;
      return { raw: duplicate ? 0.9 : 0.3, lex: duplicate ? 0 : 1, label: duplicate ? "paraphrase" : "related", group: `s${i}` };
    });
    const labelled = (of: object[]) => of.map((p) => ({ ...p, y: (p as { label: string }).label === "paraphrase" ? 1 : 0 }));
    const pooled = fitRepeat([...large, ...small]);
    const balanced = fitRepeat([...large.map((p) => ({ ...p, set: "large" })), ...small.map((p) => ({ ...p, set: "small" }))]);
    expect(pooled.lexicalWeight).toBeGreaterThan(1);
    expect(balanced.lexicalWeight).toBeLessThan(0.6);
    const at = (of: object[]) => auc(labelled(of), (p: { raw: number; lex: number }) => p.raw + balanced.lexicalWeight * p.lex);
    expect(balanced.trainingAuc).toBeCloseTo((at(large) + at(small)) / 2, 4);
  });

  it("splits the stackfaq threads into two stable halves for the simulation's held-out fit", () => {
    const halves = Array.from({ length: 200 }, (_, i) => simulationHalf(`thread-${i}`));
    expect(new Set(halves)).toEqual(new Set([0, 1]));
    expect(halves.filter((h) => h === SIMULATION_THREADS_HALF).length).toBeGreaterThan(70);
    expect(simulationHalf("thread-7")).toBe(halves[7]);
  });

  it("scores every pair out of fold, and bootstraps deterministically", () => {
    const { scores, models } = crossValidatedScores(pairs, { k: 4 });
    expect(models).toHaveLength(4);
    expect(scores.size).toBe(pairs.length);
    const stat = (s: { y: number }[]) => s.filter((p) => p.y).length / s.length;
    expect(bootstrap(pairs, stat, { samples: 50 })).toEqual(bootstrap(pairs, stat, { samples: 50 }));
  });
});
