import { describe, expect, it } from "vitest";
import { extractCards } from "../../src/core/text/cards";

/** [slot, value, retracts] of each card: what a statement says is (or is no longer) true. */
const said = (text: string) => extractCards(text).map((c) => [c.slot, c.value, c.retracts]);

describe("extractCards: retraction, negation and temporal words (seed 003)", () => {
  it.each([
    ["I no longer live in Austin", [["location", "Austin", true]]],
    ["I used to live in Austin.", [["location", "Austin", true]]],
    ["I don't work at Initech anymore", [["employer", "Initech", true]]],
    ["I'm not a student anymore", [["user_type", "student", true]]],
    ["I no longer like jazz", [["likes", "jazz", true]]],
    ["我不再住在北京", [["location", "北京", true]]],
    ["我已经不在腾讯工作了", [["employer", "腾讯", true]]],
    ["我以前住在北京", [["location", "北京", true]]],
    ["我不再喜欢爵士乐了", [["likes", "爵士乐", true]]],
  ])("%s ends the value", (text, expected) => {
    expect(said(text)).toEqual(expected);
  });

  it.each([
    ["I work for Globex now", [["employer", "Globex", false]]],
    ["I don't like jazz anymore", [["likes", "jazz", true]]],
    ["These days I live in Denver", [["location", "Denver", false]]],
    ["I live in Lisbon at the moment.", [["location", "Lisbon", false]]],
    ["I moved to Berlin in 2021", [["location", "Berlin", false]]],
    ["我现在住在上海", [["location", "上海", false]]],
    ["我不喜欢香菜了", [["dislikes", "香菜", false]]],
    ["我目前在字节跳动上班", [["employer", "字节跳动", false]]],
  ])("%s never lets a temporal word into the value", (text, expected) => {
    expect(said(text)).toEqual(expected);
  });

  it("reads a change of value in one sentence as an end and a new value", () => {
    expect(said("I used to work at Initech but now I work for Globex.")).toEqual([
      ["employer", "Initech", true],
      ["employer", "Globex", false],
    ]);
    expect(said("我以前住在北京，现在住在上海")).toEqual([
      ["location", "北京", true],
      ["location", "上海", false],
    ]);
  });

  it("records when the fact became true (event_date) when the statement says so", () => {
    const [moved] = extractCards("I moved to Berlin in 2021");
    expect(moved?.eventDate).toBe(Date.UTC(2021, 0, 1));
    const [since] = extractCards("I have worked at Acme since March 2019");
    expect(since).toMatchObject({ slot: "employer", value: "Acme", eventDate: Date.UTC(2019, 2, 1) });
    const [zh] = extractCards("我2020年搬到了成都");
    expect(zh).toMatchObject({ slot: "location", value: "成都", eventDate: Date.UTC(2020, 0, 1) });
    expect(extractCards("I live in Austin")[0]?.eventDate).toBeNull();
  });

  it("keeps what the rule saw besides the value in extra", () => {
    expect(extractCards("我的手机是小米14")[0]?.extra).toEqual({ device: "手机" });
    expect(extractCards("I no longer live in Austin")[0]?.extra).toEqual({ cue: "no longer" });
  });
});
