import { describe, expect, it } from "vitest";
import { extractCards, slotsForQuestion } from "../../src/text/cards";

const slotValues = (text: string) => extractCards(text).map((c) => [c.slot, c.value]);

describe("extractCards (seed 003)", () => {
  it("extracts the user type from 我是安卓玩机用户", () => {
    const cards = extractCards("我是安卓玩机用户");
    expect(cards).toHaveLength(1);
    expect(cards[0]).toMatchObject({ kind: "profile", entity: "user", slot: "user_type", polarity: null });
    expect(cards[0]!.value).toContain("安卓");
  });

  it("extracts a location from 我住在湖南长沙", () => {
    expect(slotValues("我住在湖南长沙")).toEqual([["location", "湖南长沙"]]);
  });

  it.each([
    ["我在腾讯工作", [["employer", "腾讯"]]],
    ["我的手机是小米14", [["device", "小米14"]]],
    ["我喜欢打篮球", [["likes", "打篮球"]]],
    ["我不喜欢香菜", [["dislikes", "香菜"]]],
    ["I live in Austin.", [["location", "Austin"]]],
    [
      "I moved to Berlin and I work at Acme Corp.",
      [
        ["location", "Berlin"],
        ["employer", "Acme Corp"],
      ],
    ],
    ["I'm a backend developer", [["user_type", "backend developer"]]],
    ["My name is Ada Lovelace.", [["name", "Ada Lovelace"]]],
    ["I really love dark roast coffee", [["likes", "dark roast coffee"]]],
    ["I don't like meetings before 10am", [["dislikes", "meetings before 10am"]]],
    ["My phone is a Pixel 8", [["device", "Pixel 8"]]],
  ])("%s", (text, expected) => {
    expect(slotValues(text)).toEqual(expected);
  });

  it("extracts nothing from questions or unrelated statements", () => {
    expect(extractCards("我是什么用户")).toEqual([]);
    expect(extractCards("where do I live?")).toEqual([]);
    expect(extractCards("The build is green again")).toEqual([]);
    expect(extractCards("")).toEqual([]);
  });
});

describe("slotsForQuestion", () => {
  it.each([
    ["我是什么用户", ["user_type"]],
    ["what kind of user am I?", ["user_type"]],
    ["我是谁", ["name", "user_type"]],
    ["what's my name?", ["name"]],
    ["我叫什么名字", ["name"]],
    ["where do I live?", ["location"]],
    ["我现在在哪", ["location"]],
    ["where do I work", ["employer"]],
    ["which company do I work for?", ["employer"]],
    ["what do I like", ["likes", "dislikes"]],
    ["what phone do I use", ["device"]],
    ["explain the retry logic", []],
  ])("%s → %j", (text, slots) => {
    expect(slotsForQuestion(text)).toEqual(slots);
  });
});
