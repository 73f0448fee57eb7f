import { describe, expect, it } from "vitest";
import { QUESTION_PATTERNS, QUESTION_TYPE_PRIORITY } from "../../src/core/text/question-patterns";
import { detectQuestionType, underlyingQuestionType } from "../../src/core/text/question-type";

describe("detectQuestionType (seed 003)", () => {
  it.each([
    // the seed's examples
    ["我是什么用户", "WhatKind"],
    ["我是谁", "WhatKind"],
    ["我现在在哪", "Recency"],
    ["我的最新地址是", "Recency"],
    // one per type and language
    ["我的身份是什么", "WhatKind"],
    ["who am I?", "WhatKind"],
    ["what kind of user am I", "WhatKind"],
    ["我有多少个项目", "HowMany"],
    ["how many repos do I have", "HowMany"],
    ["目前用的是哪个版本", "Recency"],
    ["what is the latest version", "Recency"],
    ["我之前用什么框架", "Update"],
    ["what did I use to deploy with before I switched to Fly", "Update"],
    ["我住在哪里", "Where"],
    ["where do I live?", "Where"],
    ["我喜欢什么", "Preference"],
    ["what is my favorite editor", "Preference"],
    ["do I like TypeScript", "Preference"],
    ["explain the retry logic", "Generic"],
    ["如何配置数据库", "Generic"],
  ])("%s → %s", (text, type) => {
    expect(detectQuestionType(text)).toBe(type);
  });

  it("checks types in the seed's priority order", () => {
    // matches both WhatKind (我是.*用户) and Recency (现在): WhatKind comes first
    expect(detectQuestionType("现在我是什么用户")).toBe("WhatKind");
    expect(QUESTION_TYPE_PRIORITY).toEqual(["WhatKind", "HowMany", "Recency", "Update", "Where", "Preference"]);
  });

  it("has English and Chinese patterns for every type, all valid regular expressions", () => {
    for (const type of QUESTION_TYPE_PRIORITY) {
      expect(QUESTION_PATTERNS[type].en.length).toBeGreaterThan(0);
      expect(QUESTION_PATTERNS[type].zh.length).toBeGreaterThan(0);
      for (const p of [...QUESTION_PATTERNS[type].en, ...QUESTION_PATTERNS[type].zh]) expect(() => new RegExp(p, "u")).not.toThrow();
    }
  });

  it("finds what a Recency question asks about", () => {
    expect(underlyingQuestionType("我现在在哪")).toBe("Where");
    expect(underlyingQuestionType("where do I currently live")).toBe("Where");
    expect(underlyingQuestionType("我是什么用户")).toBe("WhatKind");
  });

  it("survives hostile input", () => {
    for (const text of ["", "\u0000\uD800", "🙂".repeat(5000), "(((((((((", "a".repeat(100_000)]) {
      expect(() => detectQuestionType(text)).not.toThrow();
    }
  });
});
