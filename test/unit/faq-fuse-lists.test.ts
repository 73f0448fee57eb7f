import { describe, expect, it } from "vitest";
import { listedFaqIds, reachedByVector, type ScoredLists, toFaqLists } from "../../src/features/faqs/fuse-lists";

const variant = <E extends { score: number } | { cosine: number }>(faqId: string, variantId: string, extra: E) => ({
  faqId,
  variantId,
  text: `text of ${variantId}`,
  ...extra,
});

describe("toFaqLists", () => {
  const scored: ScoredLists = {
    canonicalLexical: [
      { id: "a", score: 3 },
      { id: "b", score: 2 },
      { id: "c", score: 1 },
    ],
    variantLexical: [variant("b", "b1", { score: 5 }), variant("b", "b2", { score: 4 }), variant("d", "d1", { score: 3 })],
    canonicalVector: [{ id: "c", score: 0.9 }],
    variantVector: [variant("e", "e1", { cosine: 0.8 }), variant("a", "a1", { cosine: 0.7 })],
  };

  it("keeps the best variant per FAQ, cuts each list to the window, and lists every FAQ found once", () => {
    const lists = toFaqLists(scored, 2);
    expect([...lists.canonicalLexical.keys()]).toEqual(["a", "b"]);
    expect([...lists.variantLexical.values()].map((v) => v.variantId)).toEqual(["b1", "d1"]);
    expect([...lists.variantVector.keys()]).toEqual(["e", "a"]);
    expect(listedFaqIds(lists).sort()).toEqual(["a", "b", "c", "d", "e"]);
    expect(["a", "b", "c", "d"].map((id) => reachedByVector(lists, id))).toEqual([true, false, true, false]);
  });

  it("leaves out FAQs that may not be returned before cutting to the window", () => {
    const lists = toFaqLists(scored, 2, (id) => id !== "a" && id !== "b");
    expect([...lists.canonicalLexical.keys()]).toEqual(["c"]);
    expect([...lists.variantLexical.keys()]).toEqual(["d"]);
    expect([...lists.variantVector.keys()]).toEqual(["e"]);
  });
});
