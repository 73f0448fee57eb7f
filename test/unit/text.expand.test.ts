import { describe, expect, it } from "vitest";
import { expandQuery } from "../../src/core/text/expand";
import { MAX_QUERY_TERMS } from "../../src/core/text/fts";
import { detectLang } from "../../src/core/text/lang";
import { MAX_ANALYZED_CHARS } from "../../src/core/text/normalize";
import { splitAtChineseStopwords } from "../../src/core/text/stopwords";

describe("expandQuery (seed 003)", () => {
  it("keeps the content word and drops the stopwords of 我是什么用户", () => {
    const { keywords, orQuery, lang } = expandQuery("我是什么用户");
    expect(keywords).toEqual(["我", "用户"]);
    expect(orQuery).toBe('"我" OR "用户" OR "user"');
    expect(orQuery).not.toContain("什么");
    expect(lang).toBe("zh");
  });

  it("drops English stopwords and keeps codes whole", () => {
    expect(expandQuery("How do I deploy to Vercel?")).toMatchObject({ keywords: ["deploy", "vercel"], lang: "en" });
    expect(expandQuery("what does error E500 on PO-12345 mean").keywords).toEqual(["error", "e500", "po-12345", "mean"]);
  });

  it("searches longer Chinese pieces by their bigrams", () => {
    expect(expandQuery("安卓玩机").orQuery).toBe('"安卓" OR "卓玩" OR "玩机" OR "android"');
  });

  it("keeps content words that contain a stopword character", () => {
    expect(splitAtChineseStopwords("我现在在哪")).toEqual(["我现在"]);
    expect(splitAtChineseStopwords("你的手机是什么")).toEqual(["你", "手机"]);
  });

  it.each(['NEAR(" OR *', '"unbalanced', "a AND b", "col:value", "x^y", "-(a)", "🙂🙂", "\uD800\u0000", "(((("])(
    "never lets FTS5 syntax through: %j",
    (q) => {
      const { orQuery } = expandQuery(q);
      for (const term of orQuery?.split(" OR ") ?? []) expect(term).toMatch(/^"([^"]|"")*"$/);
    },
  );

  it("returns no query when nothing is left", () => {
    expect(expandQuery("?!… 🙂").orQuery).toBeNull();
    expect(expandQuery("what is it").orQuery).toBeNull();
    expect(expandQuery("什么的吗").orQuery).toBeNull();
  });

  it("caps long input and says so", () => {
    const long = expandQuery(Array.from({ length: 2000 }, (_, i) => `word${i}`).join(" "));
    expect(long.truncated).toBe(true);
    expect(long.orQuery?.split(" OR ")).toHaveLength(MAX_QUERY_TERMS);
    expect(expandQuery("x".repeat(MAX_ANALYZED_CHARS)).truncated).toBe(false);
  });
});

describe("expandQuery: singular/plural variants are real words", () => {
  const otherNumber = (word: string) => expandQuery(word).variants.filter((v) => /^[a-z]+$/u.test(v));

  it.each([
    "many",
    "much",
    "every",
    "approved",
    "changed",
    "changing",
    "quickly",
    "available",
    "famous",
    "useless",
    "texas",
    "tennis",
    "news",
    "series",
    "data",
    "information",
    "kubernetes",
    "broken",
  ])("invents no other number for %s", (word) => {
    expect(otherNumber(word)).toEqual([]);
  });

  it.each([
    ["user", ["users"]],
    ["users", ["user"]],
    ["batteries", ["battery"]],
    ["address", ["addresses"]],
    ["class", ["classes"]],
    ["boxes", ["box"]],
    ["text", ["texts"]],
    ["ideas", ["idea"]],
    ["apis", ["api"]],
    ["menus", ["menu"]],
    ["settings", ["setting"]],
    ["meeting", ["meetings"]],
    ["string", ["strings"]],
    ["need", ["needs"]],
    ["family", ["families"]],
    ["reply", ["replies"]],
    ["table", ["tables"]],
    ["cases", ["case"]],
    ["caches", ["cache"]],
    ["movies", ["movie"]],
    ["status", ["statuses"]],
    ["analysis", ["analyses"]],
    ["people", ["person"]],
    ["children", ["child"]],
  ])("%s → %j", (word, variants) => {
    expect(otherNumber(word)).toEqual(variants);
  });
});

describe("detectLang", () => {
  it.each([
    ["hello world", "en"],
    ["我是安卓玩机用户", "zh"],
    ["我用 TypeScript 和 Rust 写代码", "mixed"],
    ["123 !!!", "none"],
  ])("%s → %s", (text, lang) => {
    expect(detectLang(text)).toBe(lang);
  });
});
