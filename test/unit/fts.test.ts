import { describe, expect, it } from "vitest";
import { cjkBigrams, containsCjk } from "../../src/core/text/cjk";
import { ftsDocument, orMatchExpression, segment } from "../../src/core/text/fts";

describe("segment", () => {
  it("keeps codes like PO-12345 whole and lower-cases words", () => {
    expect(segment("Invoice PO-12345: Error E500!")).toEqual(["invoice", "po-12345", "error", "e500"]);
  });

  it("turns CJK runs into overlapping bigrams, a lone character into itself", () => {
    expect(segment("我是安卓玩机用户")).toEqual(["我是", "是安", "安卓", "卓玩", "玩机", "机用", "用户"]);
    expect(segment("用 Rust")).toEqual(["用", "rust"]);
  });

  it("folds full-width characters (NFKC)", () => {
    expect(segment("ＡＢＣ１２３")).toEqual(["abc123"]);
  });
});

describe("ftsDocument and CJK helpers", () => {
  it("stores CJK as bigrams so a two-character word matches", () => {
    expect(ftsDocument("我是安卓玩机用户").split(" ")).toContain("用户");
  });

  it("detects CJK", () => {
    expect(containsCjk("hello 世界")).toBe(true);
    expect(containsCjk("hello world")).toBe(false);
    expect(cjkBigrams("")).toEqual([]);
  });
});

describe("orMatchExpression", () => {
  it("quotes terms, doubling embedded quotes, and ORs the distinct ones", () => {
    expect(orMatchExpression(['say "hi"', "x", "x"])).toBe('"say ""hi""" OR "x"');
    expect(orMatchExpression([])).toBeNull();
  });
});
