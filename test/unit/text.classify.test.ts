import { describe, expect, it } from "vitest";
import { ACKNOWLEDGMENTS, classifyQuery } from "../../src/core/text/classify";
import { isQuestion } from "../../src/core/text/is-question";
import { countWords } from "../../src/core/text/words";

describe("classifyQuery (seed 001)", () => {
  it.each(["/commit", "  /review-pr 42 please now", "/worktree add feature"])("calls %s a slash command", (prompt) => {
    expect(classifyQuery(prompt)).toEqual({ class: "trivial", reason: "slash command" });
  });

  it.each(["push", "check ci", "ok", "sounds good", "", "   ", "🙂", "好的", "在哪"])("calls %j too short", (prompt) => {
    expect(classifyQuery(prompt)).toEqual({ class: "trivial", reason: "too short" });
  });

  it.each([
    "thanks a lot!",
    "Looks good to me.",
    "OK, thank you",
    "THANK YOU SO MUCH!!!",
    "好的，明白了",
    "非常感谢你！",
    "好的没问题",
    "收到了",
    "好的，谢谢",
    "非常感谢！",
  ])("calls %j an acknowledgment", (prompt) => {
    expect(classifyQuery(prompt)).toEqual({ class: "trivial", reason: "acknowledgment" });
  });

  it.each(["why was this file changed?", "How do I deploy to Vercel?", "我是什么用户", "fix the flaky login test"])(
    "searches %j",
    (prompt) => {
      expect(classifyQuery(prompt)).toEqual({ class: "searchable" });
    },
  );

  it("applies the rules in the seed's order: a long slash command is still a slash command", () => {
    expect(classifyQuery("/commit all the staged files with a message").class).toBe("trivial");
  });

  it("lists every seed acknowledgment", () => {
    for (const ack of [
      "ok",
      "okay",
      "y",
      "yes",
      "no",
      "sure",
      "thanks",
      "lgtm",
      "done",
      "next",
      "continue",
      "go ahead",
      "proceed",
      "sounds good",
      "makes sense",
      "got it",
    ]) {
      expect(ACKNOWLEDGMENTS.has(ack)).toBe(true);
    }
  });
});

describe("countWords", () => {
  it("counts each character of a CJK run as a word: a short Chinese question passes the floor", () => {
    expect(countWords("好的")).toBe(2);
    expect(countWords("我几岁")).toBe(3);
    expect(classifyQuery("我几岁")).toEqual({ class: "searchable" });
    expect(countWords("用 Rust 写")).toBe(3);
    expect(countWords("fix PO-12345 now")).toBe(3);
  });
});

describe("isQuestion (seed 000, extended)", () => {
  it.each([
    ["What is AI?", true],
    ["How does this work", true],
    ["This is a statement.", false],
    ["Is it raining", true],
    ["should we ship today", true],
    ["the deploy failed?", true],
    ["> **Why** did it fail", true],
    ['"Can you help"', true],
    ["1. How do I start", true],
    ["Don't panic", true],
    ["Doing the dishes now.", false],
    ["Whatever works.", false],
    ["你好吗", true],
    ["我是什么用户", true],
    ["你在哪里", true],
    ["这是为什么", true],
    ["我是安卓玩机用户", false],
    ["今天天气很好。", false],
    ["", false],
    ["   ", false],
    ["🙂🙂", false],
    // A question clause after a comma, or an indirect question / request for a way at the start.
    ["I really like markdown, can I use it in google documents.", true],
    ["My data may get lost, how can I back it up easily.", true],
    ["I'd like to export my data, what's the best way to do this.", true],
    ["I wonder whether the cache survives a deploy", true],
    ["I'm looking for a website that turns pictures into ascii art.", true],
    ["Please recommend a good place to buy plants", true],
    ["Good bank\nWhich is a good bank in Doha", true],
    // Relative clauses and plans stay statements.
    ["I moved to Austin, which is hot in summer.", false],
    ["I work in Berlin, where I lead the data team.", false],
    ["I want to learn Spanish this year.", false],
    ["I'd like to visit Japan, it is on my list.", false],
    ["We shipped it, and it works.", false],
  ])("isQuestion(%j) = %s", (text, expected) => {
    expect(isQuestion(text)).toBe(expected);
  });
});
