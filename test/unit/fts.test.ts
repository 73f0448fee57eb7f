import { describe, expect, it } from "vitest";
import { cjkBigrams, containsCjk } from "../../src/text/cjk";
import { ftsDocument, ftsOrQuery, MAX_QUERY_TERMS, segment } from "../../src/text/fts";

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

describe("ftsOrQuery", () => {
  it("ORs quoted content terms and drops stopwords", () => {
    expect(ftsOrQuery("How do I deploy to Vercel?")).toBe('"deploy" OR "vercel"');
  });

  it.each(['NEAR(" OR *', '"unbalanced', "a AND b", "col:value", "x^y", "-(a)"])("quotes %s so FTS5 sees no syntax", (q) => {
    const match = ftsOrQuery(q);
    for (const term of match?.split(" OR ") ?? []) expect(term).toMatch(/^"([^"]|"")*"$/);
  });

  it("returns null when nothing searchable is left", () => {
    expect(ftsOrQuery("?!… 🙂")).toBeNull();
    expect(ftsOrQuery("what is it")).toBeNull();
  });

  it("bounds the number of terms", () => {
    const words = Array.from({ length: 100 }, (_, i) => `word${i}`).join(" ");
    expect(ftsOrQuery(words)?.split(" OR ")).toHaveLength(MAX_QUERY_TERMS);
  });

  it("survives lone surrogates and control characters", () => {
    expect(ftsOrQuery("abc\uD800def\u0000ghi")).toBe('"abc" OR "def" OR "ghi"');
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
