import { describe, expect, it } from "vitest";
import { informationNeed, parseNeedModel } from "../../src/core/text/need";
import { needFeatures } from "../../src/core/text/need-features";

const need = (text: string) => informationNeed(text).need;

describe("informationNeed: an information need, not punctuation (src/core/text/need.ts)", () => {
  it.each([
    "My invoice total looks wrong since the last update.",
    "yarn build fails with ENOSPC",
    "the sync stopped working after I changed my password",
    "docker remove dangling images",
    "regex match email address javascript",
    "walk me through how the cache invalidation works",
    "What's the best way to deploy on Vercel",
    "how's auth wired up here",
    "Where's the retry policy defined",
    "我几岁",
    "我叫啥",
    "wie lösche ich einen Branch",
    "Good bank\nWhich bank has the lowest fees",
  ])("%j is a need", (text) => {
    expect(need(text)).toBe(true);
  });

  it.each([
    "cool, thx",
    "👍",
    "push it",
    "rename this variable",
    "could you rerun the migration?",
    "const name = user?.profile?.name ?? 'anonymous';",
    "good morning!",
    "hallo zusammen",
    "你好",
    "nice, that worked!",
  ])("%j is not a need", (text) => {
    expect(need(text)).toBe(false);
  });

  it("reads a '?' in code as code: optional chaining, ternaries and regexes ask nothing", () => {
    expect(needFeatures("const x = a?.b ? c : d;").asks).toBe(0);
    expect(needFeatures("/^(?:https?:\\/\\/)?example$/").asks).toBe(0);
    expect(needFeatures("const x = a?.b;\nwhy is x undefined?").asks).toBe(1);
  });

  it("takes a polite request to act for a command, and a noun that failed for a problem", () => {
    expect(needFeatures("Could you rerun the migration?")).toMatchObject({ actRequest: 1, asks: 0, questionWord: 0 });
    expect(needFeatures("deploy failed with exit code 1")).toMatchObject({ actRequest: 0, problem: 1 });
    expect(needFeatures("部署到生产环境后页面白屏了")).toMatchObject({ actRequest: 0, problem: 1 });
  });

  it("says P(need), and refuses a malformed model table", () => {
    expect(informationNeed("How do I reset my password?").p).toBeGreaterThan(0.5);
    expect(informationNeed("ok").p).toBe(0);
    expect(() => parseNeedModel({ weights: [1], bias: 0, notNeedBelow: 0.5 })).toThrow(/weights/);
  });
});
