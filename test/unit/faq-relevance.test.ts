import { describe, expect, it } from "vitest";
import { keywordCoverage, readableScores } from "../../src/features/faqs/relevance";

describe("readable FAQ search scores", () => {
  it("gives a lone result what it matches, not the 0 of an average candidate", () => {
    expect(readableScores("reset my password", [{ similarity: 0.82, texts: ["How do I reset my password?"] }])).toEqual([1]);
    expect(readableScores("reset password email", [{ similarity: null, texts: ["How do I reset my password?"] }])).toEqual([0.6667]);
    expect(readableScores("opening hours", [{ similarity: 0.31, texts: ["Where is the Berlin office?"] }])).toEqual([0.31]);
  });

  it("keeps the ranking's order: a result never scores below one ranked under it", () => {
    const scores = readableScores("refund time", [
      { similarity: 0.55, texts: ["How long does a refund take?"] },
      { similarity: 0.7, texts: ["When will my money come back?"] },
      { similarity: 0.2, texts: ["Where is the Berlin office?"] },
    ]);
    expect(scores).toEqual([0.7, 0.7, 0.2]);
  });

  it("counts the query's content words held by the better of question and variant", () => {
    expect(keywordCoverage(["refund", "card"], ["How long does a refund take?", "refund to my card"])).toBe(1);
    expect(keywordCoverage([], ["anything"])).toBe(0);
  });
});
