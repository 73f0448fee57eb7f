// The offline repeat fit (`npm run calibrate -- --repeat`): in Node, since scripts/repeat-fit.mjs
// bundles the shared fitting math of src/core/calibration/fit.ts with esbuild when it loads.
import { describe, expect, it } from "vitest";
// @ts-expect-error: plain ESM module shared with `npm run calibrate -- --repeat`, no type declarations
import * as fit from "../../scripts/repeat-fit.mjs";

const { SIMULATION_THREADS_HALF, auc, bootstrap, crossValidatedScores, fitRepeat, pairMetrics, repeatScore, simulationHalf } = fit;

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
