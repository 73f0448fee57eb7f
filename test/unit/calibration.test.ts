import { env } from "cloudflare:test";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createServices } from "../../src/app/services";
import * as bands from "../../src/core/calibration/bands";
import { type Calibration, calibrate, parseCalibration, reportSimilarity } from "../../src/core/calibration/calibration";
import { calibrationFor, shippedCalibrations, shippedScale } from "../../src/core/scale/registry";
import { scaleStatus } from "../../src/core/scale/scale";
import * as fit from "../../src/core/calibration/fit";

const { agreement, applyKnots, boundary, fitKnots, isotonic } = fit;
const { bandOf } = bands;

const table = (knots: [number, number][]): Calibration => ({ model: "m", method: "test", fittedOn: "test", knots });
const sweep = Array.from({ length: 2001 }, (_, i) => -1 + i / 1000);

describe("calibrate", () => {
  const c = table([
    [0.2, 0.1],
    [0.5, 0.6],
    [0.7, 0.9],
  ]);

  it("interpolates linearly between knots", () => {
    expect(calibrate(0.35, c)).toBeCloseTo(0.35, 10);
    expect(calibrate(0.6, c)).toBeCloseTo(0.75, 10);
    expect(calibrate(0.5, c)).toBe(0.6);
  });

  it("clamps outside the knots, and to [0, 1]", () => {
    expect(calibrate(-1, c)).toBe(0.1);
    expect(calibrate(1, c)).toBe(0.9);
    expect(
      calibrate(
        5,
        table([
          [0, 0.5],
          [1, 1.5],
        ]),
      ),
    ).toBe(1);
  });

  it("is reported as { similarity (calibrated), rawCosine }", () => {
    expect(reportSimilarity(0.35, c)).toEqual({ similarity: calibrate(0.35, c), rawCosine: 0.35 });
  });

  it("is the raw cosine clamped to [0, 1] without a calibration", () => {
    expect(calibrate(0.42, null)).toBe(0.42);
    expect(calibrate(-0.3, null)).toBe(0);
    expect(calibrate(1.0000001, null)).toBe(1);
  });
});

describe("shipped calibration tables", () => {
  it("ships one for the local default model", () => {
    expect(shippedCalibrations().map((t) => t.model)).toContain("use-lite-512");
    expect(calibrationFor("use-lite-512")?.method).toBe("isotonic-anchors");
  });

  it.each(shippedCalibrations().map((t) => [t.model, t] as const))("%s is monotone non-decreasing and bounded in [0, 1]", (_model, t) => {
    let previous = -Infinity;
    for (const raw of [-5, ...sweep, 5]) {
      const y = calibrate(raw, t);
      expect(y).toBeGreaterThanOrEqual(0);
      expect(y).toBeLessThanOrEqual(1);
      expect(y).toBeGreaterThanOrEqual(previous);
      previous = y;
    }
    expect(calibrate(-1, t)).toBe(0);
    expect(calibrate(1, t)).toBe(1);
  });

  it("gives the same values in the Worker as in the fitting script", () => {
    for (const t of shippedCalibrations()) {
      for (const raw of sweep) expect(calibrate(raw, t)).toBeCloseTo(applyKnots(raw, t.knots), 12);
    }
  });
});

describe("parseCalibration", () => {
  const base = { model: "m", method: "x", fittedOn: "y" };

  it("rejects knots that go down, repeat a raw value or leave the range", () => {
    expect(() =>
      parseCalibration({
        ...base,
        knots: [
          [0, 0.5],
          [0.5, 0.4],
        ],
      }),
    ).toThrow(/monotone/);
    expect(() =>
      parseCalibration({
        ...base,
        knots: [
          [0.5, 0.4],
          [0.5, 0.6],
        ],
      }),
    ).toThrow(/monotone/);
    expect(() =>
      parseCalibration({
        ...base,
        knots: [
          [0, 0],
          [1, 1.2],
        ],
      }),
    ).toThrow(/range/);
    expect(() => parseCalibration({ ...base, knots: [[0, 0]] })).toThrow(/two knots/);
    expect(() => parseCalibration({ model: "m", knots: [] })).toThrow(/strings/);
  });

  it("keeps model, method, fittedOn and knots", () => {
    expect(
      parseCalibration({
        ...base,
        extra: 1,
        knots: [
          [-1, 0],
          [1, 1],
        ],
      }),
    ).toEqual({
      ...base,
      knots: [
        [-1, 0],
        [1, 1],
      ],
    });
  });
});

describe("calibrationFor a model without a table", () => {
  afterEach(() => vi.restoreAllMocks());

  it("is null, says why in scaleStatus, and the services log one warning per model per isolate", () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    expect(calibrationFor("no-such-model")).toBeNull();
    const uncalibrated = { ...env, EMBEDDING_MODEL: "no-such-model" };
    createServices(uncalibrated);
    createServices(uncalibrated);
    createServices(env);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(JSON.parse(String(warn.mock.calls[0]![0]))).toMatchObject({
      event: "similarity_uncalibrated",
      model: "no-such-model",
      calibrated: false,
    });
    expect(scaleStatus(shippedScale("@cf/baai/bge-m3"))).toMatchObject({
      calibrated: false,
      reason: expect.stringContaining("no fit yet"),
      source: { kind: "raw" },
    });
    expect(scaleStatus(shippedScale("use-lite-512"))).toMatchObject({
      calibrated: true,
      method: "isotonic-anchors",
      source: { kind: "shipped" },
    });
  });
});

describe("fitting (src/core/calibration/fit.ts)", () => {
  it("bands: paraphrase ≥ 0.80, related 0.60–0.80, unrelated < 0.60", () => {
    expect([0.8, 0.79, 0.6, 0.59].map(bandOf)).toEqual(["paraphrase", "related", "related", "unrelated"]);
  });

  it("isotonic regression pools adjacent violators into a non-decreasing fit", () => {
    const blocks = isotonic([
      { x: 1, y: 1 },
      { x: 2, y: 3 },
      { x: 3, y: 2 },
      { x: 4, y: 4 },
    ]) as { y: number; w: number }[];
    expect(blocks.map((b) => b.y)).toEqual([1, 2.5, 4]);
    expect(blocks.map((b) => b.w)).toEqual([1, 2, 1]);
  });

  it("puts a class boundary between separable classes, whatever their sizes", () => {
    const t = boundary([0.1, 0.2, 0.3], [0.6, 0.7, 0.8, 0.9, 0.95, 0.99]) as number;
    expect(t).toBeGreaterThan(0.3);
    expect(t).toBeLessThan(0.6);
  });

  it("fits knots that send each label to its band on separable data", () => {
    const pairs = [
      ...[0.05, 0.1, 0.15, 0.2].map((raw) => ({ raw, label: "unrelated" as const })),
      ...[0.4, 0.45, 0.5].map((raw) => ({ raw, label: "related" as const })),
      ...[0.7, 0.75, 0.8, 0.9].map((raw) => ({ raw, label: "paraphrase" as const })),
    ];
    const { knots } = fitKnots(pairs) as { knots: [number, number][] };
    parseCalibration({ model: "m", method: "x", fittedOn: "y", knots });
    expect(agreement(pairs, (p: { raw: number }) => applyKnots(p.raw, knots)).overall).toBe(1);
  });

  it("honours a seed's reference similarity for a pair and drops the data anchor it contradicts", () => {
    const pairs = [
      ...[0.05, 0.1, 0.2].map((raw) => ({ raw, label: "unrelated" as const })),
      ...[0.4, 0.5, 0.6].map((raw) => ({ raw, label: "related" as const })),
      ...[0.7, 0.8, 0.9].map((raw) => ({ raw, label: "paraphrase" as const })),
      { raw: 0.45, label: "paraphrase" as const, reference: 0.87 },
    ];
    const { knots, dropped } = fitKnots(pairs) as { knots: [number, number][]; dropped: unknown[] };
    expect(applyKnots(0.45, knots)).toBeCloseTo(0.87, 6);
    expect(dropped.length).toBeGreaterThan(0);
    parseCalibration({ model: "m", method: "x", fittedOn: "y", knots });
  });
});
