import { describe, expect, it } from "vitest";
import { type LabelledStatement, scoreCards } from "../../bench/support/card-metrics";
import labelled from "../../bench/data/cards.labelled.jsonl?raw";
import heldout2 from "../../bench/data/cards.heldout2.jsonl?raw";
import { extractCards } from "../../src/core/text/cards";

describe("card coverage and precision (seed 003)", () => {
  it("scores as worked out by hand", () => {
    const set: LabelledStatement[] = [
      { id: "1", lang: "en", text: "a", cards: [{ slot: "location", value: "Austin" }] },
      { id: "2", lang: "en", text: "b", cards: [{ slot: "location", value: "Austin", retracts: true }] },
      { id: "3", lang: "en", text: "c", cards: [] },
      { id: "4", lang: "en", text: "d", cards: [{ slot: "likes", value: "jazz" }] },
    ];
    const extract = (text: string) =>
      ({
        a: [{ slot: "location", value: " austin", retracts: false }],
        b: [{ slot: "location", value: "Austin", retracts: false }],
        c: [{ slot: "name", value: "C", retracts: false }],
        d: [],
      })[text]!;
    // 3 of 4 statements yield a card; 1 of 3 extracted cards is right; 1 of 3 expected found.
    expect(scoreCards(set, extract)).toMatchObject({
      statements: 4,
      cardBearing: 3,
      coverage: 0.75,
      coverageOfCardBearing: 2 / 3,
      precision: 1 / 3,
      recall: 1 / 3,
      falsePositiveStatements: 1,
    });
  });

  it("has at least 200 labelled statements, English and Chinese, in the repository", () => {
    const set = labelled
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as LabelledStatement);
    expect(set.length).toBeGreaterThanOrEqual(200);
    expect(new Set(set.map((s) => s.lang))).toEqual(new Set(["en", "zh"]));
    expect(new Set(set.map((s) => s.id)).size).toBe(set.length);
  });

  it("has a second held-out set of 60 statements, English and Chinese, with its own ids", () => {
    const set = heldout2
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as LabelledStatement);
    expect(set).toHaveLength(60);
    expect(new Set(set.map((s) => s.lang))).toEqual(new Set(["en", "zh"]));
    expect(new Set(set.map((s) => s.id)).size).toBe(set.length);
    expect(set.every((s) => s.id.startsWith("h2-"))).toBe(true);
  });

  it("keeps the seed's > 80% coverage and ≥ 95% precision on the development set (a regression guard)", () => {
    const set = labelled
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as LabelledStatement);
    const scores = scoreCards(set, (text) => extractCards(text).map((c) => ({ slot: c.slot, value: c.value, retracts: c.retracts })));
    expect(scores.coverage).toBeGreaterThan(0.8);
    expect(scores.precision).toBeGreaterThanOrEqual(0.95);
  });
});
