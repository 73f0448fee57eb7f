import { describe, expect, it } from "vitest";
import { parseCalibration } from "../../src/core/calibration/calibration";
import { shippedScale } from "../../src/core/scale/registry";
import { fitScale, MIN_PAIRS_PER_BAND, type MeasuredPair, SEED_LINES } from "../../src/features/self-fit/fit-scale";

/** A model whose cosine sits high and separates: rewordings at 0.85–0.95, neighbours 0.7–0.8, strangers 0.5–0.6. */
function pairs(groups: number): MeasuredPair[] {
  return Array.from({ length: groups }, (_, g) => {
    const jitter = ((g * 37) % 11) / 100;
    const q = `how do I configure widget ${g}`;
    return [
      { source: "faqs", group: `g${g}`, label: "paraphrase" as const, a: q, b: `configure widget ${g} how`, raw: 0.85 + jitter },
      { source: "faqs", group: `g${g}`, label: "related" as const, a: q, b: `how do I delete widget ${g}`, raw: 0.7 + jitter },
      { source: "faqs", group: `g${g}`, label: "unrelated" as const, a: q, b: `why is the sky blue ${g}`, raw: 0.5 + jitter },
    ];
  }).flat();
}

const raw = { ...shippedScale("no-table-model"), model: "m" };

describe("fitScale", () => {
  it("stores a monotone map that sends each band where it belongs, with held-out figures and intervals", () => {
    const outcome = fitScale(pairs(40), raw);
    expect(outcome.stored).toBe(true);
    if (!outcome.stored) return;
    const calibration = parseCalibration({ model: "m", ...outcome.tables.calibration });
    expect(calibration.knots.length).toBeGreaterThanOrEqual(4);
    const { report } = outcome;
    expect(report.baseline).toEqual({ kind: "raw", reason: expect.any(String) });
    expect(report.agreement!.crossValidated.macro).toBeGreaterThan(report.agreement!.baseline.macro);
    expect(report.lines!.map((l) => l.line)).toEqual(SEED_LINES.map((l) => l.line));
    for (const line of report.lines!) {
      const { value, interval } = line.selfFit.precision;
      expect(interval[0]).toBeLessThanOrEqual(value);
      expect(interval[1]).toBeGreaterThanOrEqual(value);
    }
    // The shared-words line is kept from the baseline (here the unfitted one), only the score line is fitted.
    expect(outcome.tables.decision.sharedMin).toBe(0.8);
  });

  it("refuses too few pairs in a band, and says which", () => {
    const outcome = fitScale(pairs(MIN_PAIRS_PER_BAND - 1), raw);
    expect(outcome).toMatchObject({ stored: false, reason: expect.stringMatching(/^too few pairs labelled paraphrase \(29 < 30\)/) });
  });
});
