import { describe, expect, it } from "vitest";
import { expandQuery } from "../../src/core/text/expand";
import { ftsDocument, segment } from "../../src/core/text/fts";
import { normalizeText } from "../../src/core/text/normalize";
import { expandVariants } from "../../src/core/text/variants";

describe("mixed scripts: Latin runs inside Chinese stay words (seed 003)", () => {
  it("segments 我用iPhone手机 into a word and CJK bigrams, for documents and queries alike", () => {
    expect(segment("我用iPhone手机")).toEqual(["我用", "iphone", "手机"]);
    expect(segment("用Rust写CLI工具")).toEqual(["用", "rust", "写", "cli", "工具"]);
    expect(segment("小米14Pro很好用")).toEqual(["小米", "14pro", "很好", "好用"]);
    expect(ftsDocument("我用iPhone手机")).toBe("我用 iphone 手机");
  });

  it("expands 我用iPhone手机 to iphone, not its letter pairs", () => {
    const { keywords, orQuery } = expandQuery("我用iPhone手机");
    expect(keywords).toContain("iphone");
    expect(orQuery).toContain('"iphone"');
    expect(orQuery).not.toMatch(/"ip"|"ph"|"ho"|"on"/);
    expect(orQuery).toContain('"手机"');
  });
});

describe("expandVariants (seed 003)", () => {
  it.each([
    ["用户", ["用户", "user"]],
    ["user", ["user", "users", "用户"]],
    ["users", ["users", "user", "用户"]],
    ["phone", ["phone", "phones", "手机"]],
    ["batteries", ["batteries", "battery", "电池"]],
    ["address", ["address", "addresses", "地址"]],
    ["kernel", ["kernel", "kernels"]],
  ])("%s → %j", (term, variants) => {
    expect(expandVariants(term)).toEqual(variants);
  });

  it("finds the equivalents of the words inside a Chinese piece", () => {
    expect(expandVariants("安卓手机")).toEqual(["安卓手机", "android", "phone"]);
  });

  it("ORs the variants after the query's own terms", () => {
    const expansion = expandQuery("我是什么用户");
    expect(expansion.variants).toEqual(["user"]);
    expect(expansion.orQuery).toBe('"我" OR "用户" OR "user"');
    expect(expandQuery("my phone battery").orQuery).toBe('"phone" OR "battery" OR "phones" OR "手机" OR "batteries" OR "电池"');
  });
});

describe("normalizeText keeps the joiners words are spelled with", () => {
  it("keeps a zero-width non-joiner inside a Persian word and a joiner inside an emoji, and drops other format characters", () => {
    expect(normalizeText("می‌توانم").text).toBe("می‌توانم");
    expect(normalizeText("👩‍💻 ok").text).toBe("👩‍💻 ok");
    expect(normalizeText("a\u200Bb\u0007c").text).toBe("a b c");
  });
});
