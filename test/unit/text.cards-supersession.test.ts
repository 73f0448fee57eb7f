import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { currentCards, storeCards } from "../../src/features/cards/store";
import { extractCards } from "../../src/core/text/cards";
import { newTenant } from "../support/api";

/** [slot, value, retracts] of each card: what a statement ends and what it starts. */
const said = (text: string) => extractCards(text).map((c) => [c.slot, c.value, c.retracts]);

describe("extractCards: statements of change (seed 003, the table in card-tense.ts)", () => {
  it.each([
    [
      "I moved from Austin to Denver",
      [
        ["location", "Austin", true],
        ["location", "Denver", false],
      ],
    ],
    [
      "We relocated from Boston to Seattle last year.",
      [
        ["location", "Boston", true],
        ["location", "Seattle", false],
      ],
    ],
    [
      "I moved to Denver from Austin",
      [
        ["location", "Austin", true],
        ["location", "Denver", false],
      ],
    ],
    ["I moved away from Chicago", [["location", "Chicago", true]]],
    ["I moved away", [["location", "there", true]]],
    ["I left Austin", [["location", "Austin", true]]],
    [
      "I left Austin for Denver",
      [
        ["location", "Austin", true],
        ["location", "Denver", false],
      ],
    ],
    ["I left Google", [["employer", "Google", true]]],
    ["I stopped working at Uber in January.", [["employer", "Uber", true]]],
    ["我已经不用安卓手机了", [["device", "安卓手机", true]]],
    ["我不再用Windows了", [["device", "Windows", true]]],
    ["I left Microsoft last year.", [["employer", "Microsoft", true]]],
    [
      "I left Google to join Meta",
      [
        ["employer", "Google", true],
        ["employer", "Meta", false],
      ],
    ],
    ["I quit Initech", [["employer", "Initech", true]]],
    ["I left my job at Stripe", [["employer", "Stripe", true]]],
    ["I quit my job", [["employer", "there", true]]],
    ["I was laid off", [["employer", "there", true]]],
    ["I no longer live there", [["location", "there", true]]],
    ["I don't work there anymore", [["employer", "there", true]]],
    [
      "我从北京搬到了上海",
      [
        ["location", "北京", true],
        ["location", "上海", false],
      ],
    ],
    ["我离开了北京", [["location", "北京", true]]],
    ["我离开了腾讯", [["employer", "腾讯", true]]],
    ["我搬走了", [["location", "那里", true]]],
    ["我不住那里了", [["location", "那里", true]]],
    ["我辞职了", [["employer", "那里", true]]],
    ["我不在腾讯工作了", [["employer", "腾讯", true]]],
  ])("%s", (text, expected) => {
    expect(said(text)).toEqual(expected);
  });

  it("marks a value that points at the current one, and states nothing with it otherwise", () => {
    expect(extractCards("I no longer live there")[0]?.extra).toEqual({ cue: "no longer", refersTo: "current" });
    expect(extractCards("我辞职了")[0]?.extra).toMatchObject({ refersTo: "current" });
    expect(said("I live here")).toEqual([]);
    expect(said("我住在这里")).toEqual([]);
  });

  it("leaves things that are not a home or a job alone", () => {
    for (const text of [
      "I left a comment on the PR.",
      "I left my keys at home.",
      "I quit the app and reopened it.",
      "I moved the file to the shared folder.",
      "我离开了一会儿",
      "我离开了家",
    ]) {
      expect(said(text), text).toEqual([]);
    }
  });

  it("keeps the date of a change with the value it starts", () => {
    const [, denver] = extractCards("I moved from Austin to Denver in 2020");
    expect(denver).toMatchObject({ value: "Denver", eventDate: Date.UTC(2020, 0, 1) });
  });
});

describe("storeCards: what a change leaves current", () => {
  const scope = "user:change";
  let memory = 0;
  /** Stores what a statement extracts, as the memory written `at` ms. */
  const tell = async (tenantId: string, text: string, at: number) =>
    storeCards(env.DB, { tenantId, scope, memoryId: `mem_${++memory}`, createdAt: at }, extractCards(text));
  const now = async (tenantId: string, slot: string) => (await currentCards(env.DB, tenantId, scope, "user", slot)).map((c) => c.value);

  it("moves the current city from Austin to Denver", async () => {
    const { tenantId } = await newTenant();
    await tell(tenantId, "I live in Austin", 1);
    await tell(tenantId, "I moved from Austin to Denver", 2);
    expect(await now(tenantId, "location")).toEqual(["Denver"]);
  });

  it("ends the location, not the employer, when the user left a city", async () => {
    const { tenantId } = await newTenant();
    await tell(tenantId, "I live in Austin and I work for Dell.", 1);
    await tell(tenantId, "I left Austin", 2);
    expect(await now(tenantId, "location")).toEqual([]);
    expect(await now(tenantId, "employer")).toEqual(["Dell"]);
  });

  it("ends whatever is current for 'there' (the one tiny store rule: extra.refersTo)", async () => {
    const { tenantId } = await newTenant();
    await tell(tenantId, "I live in Austin", 1);
    await tell(tenantId, "I no longer live there", 2);
    expect(await now(tenantId, "location")).toEqual([]);
    await tell(tenantId, "我在腾讯工作", 3);
    await tell(tenantId, "我辞职了", 4);
    expect(await now(tenantId, "employer")).toEqual([]);
  });

  it("ends only the named value otherwise", async () => {
    const { tenantId } = await newTenant();
    await tell(tenantId, "I live in Denver", 1);
    await tell(tenantId, "I left Austin", 2);
    expect(await now(tenantId, "location")).toEqual(["Denver"]);
  });
});
