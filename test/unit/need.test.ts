import { describe, expect, it } from "vitest";
import { informationNeed, parseNeedModel } from "../../src/core/text/need";
import { NEED_FEATURES, needFeatures } from "../../src/core/text/need-features";
import { needTerms } from "../../src/core/text/need-terms";

const need = (text: string) => informationNeed(text).need;
/** A model that weighs only the given word terms (every feature 0), read as a shipped table is. */
const wordsOnlyModel = (terms: unknown) => parseNeedModel({ weights: NEED_FEATURES.map(() => 0), bias: 0, terms, notNeedBelow: 0.5 });

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

  it("reads an error code by its case: ENOSPC is a problem, 'enough' and 'email' are words", () => {
    expect(needFeatures("yarn build fails with ENOSPC").problem).toBe(1);
    expect(needFeatures("fair enough").problem).toBe(0);
    expect(needFeatures("export email list").problem).toBe(0);
  });

  it("reads past a greeting or a discourse word to the question behind it", () => {
    expect(needFeatures("hi, how do I reset my password?")).toMatchObject({ questionWord: 1, greeting: 0 });
    expect(needFeatures("wait, why does this return undefined?").questionWord).toBe(1);
    expect(needFeatures("Hi, hope you're doing well").greeting).toBe(1);
  });

  it("takes a farewell, or greetings one after another, for a greeting in the common languages; a question after one still asks", () => {
    for (const text of ["see you tomorrow, bye!", "hello hello", "Bis später, tschüss", "再见，明天见", "hasta luego"])
      expect(needFeatures(text).greeting, text).toBe(1);
    expect(need("bye for now — how do I export my notes before I cancel?")).toBe(true);
    // A long run of them that ends in something else is read once, not split every way (it hung the reader).
    expect(needFeatures(`${"bye ".repeat(200)}why?`).greeting).toBe(0);
  });

  it("takes pasted output for code: log lines ask nothing, and diffs, timestamps, prompts and columns are output", () => {
    const npm = "npm ERR! code ERESOLVE\nnpm ERR! Could not resolve dependency:\nnpm ERR! peer react@17";
    expect(needFeatures(npm)).toMatchObject({ questionWord: 0, code: 1 });
    expect(needFeatures("--- a/src/cart.js\n+++ b/src/cart.js\n@@ -12,7 +12,7 @@").code).toBe(1);
    expect(needFeatures("2024-05-11 08:02:13 INFO worker-3 picked job 1\n2024-05-11 08:02:14 INFO worker-3 done").code).toBe(1);
    expect(needFeatures("$ git status\nOn branch main\nnothing to commit, working tree clean")).toMatchObject({ code: 1, problem: 0 });
    // An acronym opening a line is prose: the question above a pasted log still asks.
    expect(
      needFeatures("API returns 500 when I send a large body?\nhere is the log:\n2024-05-01 10:00:01 ERROR body too large"),
    ).toMatchObject({ asks: 1, problem: 1 });
    expect(needFeatures("$ kubectl get pods\nNAME    READY   STATUS\napi-1   1/1     Running").code).toBe(1);
  });

  it("reads an act in every form it is asked: by the verb's lemma, after an adverb, and with German's infinitive last", () => {
    expect(needFeatures("Would you mind splitting this into two PRs?").actRequest).toBe(1);
    expect(needFeatures("Could you also add the env var to the values file?").actRequest).toBe(1);
    expect(needFeatures("Bitte die Version auf 2.0 anheben.").actRequest).toBe(1);
    expect(needFeatures("再跑一遍单元测试").actRequest).toBe(1);
    expect(needFeatures("turn off notifications for the live chat").actRequest).toBe(1);
    expect(needFeatures("能不能帮我把这段翻译成英文吗？").actRequest).toBe(1);
    // A verb may open a search title: told to act, people point at what they mean.
    expect(needFeatures("convert mp4 to gif ffmpeg").titleLike).toBe(1);
    expect(needFeatures("convert this to a gif").titleLike).toBe(0);
    // A Chinese question word asks, whatever verb follows it.
    expect(needFeatures("安装包去哪下载")).toMatchObject({ actRequest: 0, questionWord: 1 });
  });

  it("says P(need), and refuses a malformed model table", () => {
    expect(informationNeed("How do I reset my password?").p).toBeGreaterThan(0.5);
    expect(informationNeed("ok").p).toBe(0);
    expect(() => parseNeedModel({ weights: [1], bias: 0, notNeedBelow: 0.5 })).toThrow(/weights/);
    expect(() => wordsOnlyModel({ "w:x": "1" })).toThrow(/terms/);
    expect(() => wordsOnlyModel([1])).toThrow(/terms/);
  });

  it("weighs every word: the model's word terms move P(need) (need-terms.ts)", () => {
    const text = "lock the front door please";
    expect(informationNeed(text, wordsOnlyModel({})).p).toBe(0.5);
    expect(informationNeed(text, wordsOnlyModel({ "b:^ lock": -2 })).need).toBe(false);
    expect(informationNeed(text, wordsOnlyModel({ "w:door": 2 })).need).toBe(true);
  });

  it("a comment is code where code stands beside it, in any language", () => {
    expect(needFeatures('# 读取配置文件\nconfig = yaml.safe_load(open("config.yml"))').code).toBe(1);
    expect(needFeatures("# Verbindung\nDATABASE_URL=postgres://localhost/shop").code).toBe(1);
    // A heading above prose stays prose, and so does a list item above a command.
    expect(needFeatures("# Billing\nWhy was I charged twice this month?").code).toBe(0);
    expect(needFeatures("* first, run the installer\n    npm install").code).toBe(0.5);
  });

  it("reads configuration, SQL clauses and syslog lines as pasted output; a labelled line of prose stays prose", () => {
    expect(needFeatures("apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: checkout").code).toBe(1);
    expect(needFeatures("SELECT name\nFROM users\nWHERE id = 1\nORDER BY name").code).toBe(1);
    expect(needFeatures("Mar 12 03:02:11 web01 kernel: Out of memory\nMar 12 03:02:12 web01 kernel: Killed process").code).toBe(1);
    expect(needFeatures("Context: we run Postgres 15 on RDS\nQuestion: how do I enable pg_stat_statements").code).toBe(0);
  });
});

describe("needTerms: the words of a prompt as a model's terms", () => {
  it("reads English words by their lemma, and pairs of neighbours as written, so the mood stays", () => {
    expect(needTerms("Refunds take how long?")).toEqual(
      expect.arrayContaining(["w:refund", "w:take", "b:^ refunds", "b:refunds take", "b:long $"]),
    );
    expect(needTerms("Remove the card")).toEqual(expect.arrayContaining(["w:remove", "b:^ remove", "^verb"]));
    const gerund = needTerms("Removing a card in trello.");
    expect(gerund).toEqual(expect.arrayContaining(["w:remove", "b:^ removing", "^gerund"]));
    expect(gerund).not.toContain("^verb");
  });

  it("cuts Chinese into dictionary words, and takes any number or emoji as one term", () => {
    const terms = needTerms("怎么申请退款");
    expect(terms).toEqual(expect.arrayContaining(["w:怎么", "w:申请", "w:退款", "b:^ 怎么", "b:退款 $"]));
    expect(terms).not.toContain("w:怎");
    expect(needTerms("back in 10 👍")).toEqual(expect.arrayContaining(["w:<num>", "w:<emoji>", "b:<num> <emoji>"]));
  });

  it("names each term once, and leaves the final punctuation to the features", () => {
    const terms = needTerms("the the the.");
    expect(terms.filter((t) => t === "w:the")).toHaveLength(1);
    expect(terms.some((t) => t.startsWith("end:"))).toBe(false);
  });
});
