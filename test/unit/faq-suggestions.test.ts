import { describe, expect, it } from "vitest";
import type { FaqRow, FaqSearchHit } from "../../src/features/faqs/types";
import { foldText } from "../../src/features/faqs/store";
import { SUGGESTION_MARGIN, suggestionFor } from "../../src/features/faqs/suggestions";

const hit = (id: string, question: string, similarity: number | null, variant?: string): FaqSearchHit => ({
  faq: { id, question } as FaqRow,
  score: 0.03,
  matchType: ["canonical_vector"],
  matchedVariant: variant ? { id: `v-${id}`, variantText: variant } : null,
  similarity,
});

describe("suggestionFor", () => {
  it("clusters an ambiguous query by the top FAQ and its sorted content words", () => {
    expect(
      suggestionFor("Password help, please?", [
        hit("a", "Reset password", 0.9),
        hit("b", "Change password", 0.9 - SUGGESTION_MARGIN + 1e-9),
      ]),
    ).toEqual({
      clusterKey: "a:help password please",
      faqId: "a",
      alternateFaqId: "b",
    });
    // Word order and stopwords do not split a cluster.
    expect(suggestionFor("please help with the password", [hit("a", "Reset password", 0.8), hit("b", "x", 0.8)])?.clusterKey).toBe(
      "a:help password please",
    );
  });

  it("ignores clear winners, irrelevant pairs, missing similarities and phrasings the FAQ already has", () => {
    expect(suggestionFor("q words", [hit("a", "A", 0.9), hit("b", "B", 0.84)])).toBeNull();
    expect(suggestionFor("q words", [hit("a", "A", 0.55), hit("b", "B", 0.55)])).toBeNull();
    expect(suggestionFor("q words", [hit("a", "A", null), hit("b", "B", 0.9)])).toBeNull();
    expect(suggestionFor("q words", [hit("a", "A", 0.9)])).toBeNull();
    expect(suggestionFor("reset PASSWORD", [hit("a", "Reset password!", 0.9), hit("b", "B", 0.9)])).toBeNull();
    expect(suggestionFor("forgot login", [hit("a", "A", 0.9, "Forgot login"), hit("b", "B", 0.9)])).toBeNull();
    expect(suggestionFor("the of and", [hit("a", "A", 0.9), hit("b", "B", 0.9)])).toBeNull();
  });
});

describe("foldText", () => {
  it("folds case, width, punctuation and spacing", () => {
    expect(foldText("  Ｆorgot   LOGIN?! ")).toBe("forgot login");
    expect(foldText("can't access")).toBe("can t access");
  });
});
