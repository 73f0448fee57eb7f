import { describe, expect, it } from "vitest";
import { ELLIPSIS, excerpt } from "../../src/features/context/excerpt";
import { MIN_EXCERPT_TOKENS, renderContext } from "../../src/features/context/markdown";
import { lexicalTerms } from "../../src/core/ranking/lexical";
import { estimateTokens } from "../../src/core/text/tokens";

const filler = (topic: string, n: number) =>
  Array.from({ length: n }, (_, i) => `Note ${i} about ${topic} keeps going with details nobody asked for.`).join(" ");

/** ~3,400 characters about one subject, the part that answers the question in the middle. */
const longFact = (i: number) =>
  `${filler("the office plants", 25)} Docker build layer caching ${i}: copy package.json and run npm ci before copying the source, so the dependency layer is reused. ${filler("the parking rules", 25)}`;

describe("excerpt", () => {
  it("keeps a text that fits as it is", () => {
    expect(excerpt("Short  text\nhere.", [], 50)).toBe("Short text here.");
  });

  it("shortens a long text around the sentence that holds the query's terms, with … where it cut", () => {
    const cut = excerpt(longFact(1), lexicalTerms("how does docker build layer caching work?"), 60);
    expect(estimateTokens(cut)).toBeLessThanOrEqual(60);
    expect(cut).toContain("Docker build layer caching 1");
    expect(cut.startsWith(ELLIPSIS)).toBe(true);
    expect(cut.endsWith(ELLIPSIS)).toBe(true);
  });

  it("cuts one overlong sentence around its first matching term", () => {
    const sentence = `${"word ".repeat(200)}the vault key rotates monthly ${"more ".repeat(200)}`;
    const cut = excerpt(sentence, ["vault"], 20);
    expect(estimateTokens(cut)).toBeLessThanOrEqual(20);
    expect(cut).toContain("vault");
  });

  it("cuts Chinese by its own cost (one token per character)", () => {
    const text = `${"无关的内容。".repeat(100)}手机电池很快没电，可以关闭后台刷新。${"别的事情。".repeat(100)}`;
    const cut = excerpt(text, lexicalTerms("手机电池怎么办"), 40);
    expect(estimateTokens(cut)).toBeLessThanOrEqual(40);
    expect(cut).toContain("手机电池");
  });
});

describe("renderContext within a budget", () => {
  it("shows long memories shortened around what matched instead of dropping them", () => {
    const memories = Array.from({ length: 5 }, (_, i) => ({ content: longFact(i), memoryType: "fact" }));
    const terms = lexicalTerms("docker build layer caching");
    const rendered = renderContext({ similarQuestions: [], memories }, 500, terms);
    expect(rendered.tokens).toBeLessThanOrEqual(500);
    expect(rendered.included.memories).toBe(5);
    for (let i = 0; i < 5; i++) expect(rendered.markdown).toContain(`Docker build layer caching ${i}`);
  });

  it("keeps short memories whole and gives the long one what they leave", () => {
    const memories = [
      { content: "The staging database lives in Frankfurt.", memoryType: "fact" },
      { content: longFact(7), memoryType: "fact" },
    ];
    const rendered = renderContext({ similarQuestions: [], memories }, 200, lexicalTerms("docker layer caching"));
    expect(rendered.markdown).toContain("- [fact] The staging database lives in Frankfurt.");
    expect(rendered.markdown).toContain("Docker build layer caching 7");
    expect(rendered.tokens).toBeLessThanOrEqual(200);
  });

  it("leaves out the lowest-ranked memories when a share would be too small to say anything", () => {
    const memories = Array.from({ length: 5 }, (_, i) => ({ content: longFact(i), memoryType: "fact" }));
    const rendered = renderContext({ similarQuestions: [], memories }, 100, lexicalTerms("docker"));
    expect(rendered.included.memories).toBeGreaterThan(0);
    expect(rendered.included.memories).toBeLessThan(5);
    expect(rendered.tokens).toBeLessThanOrEqual(100);
    expect(Math.floor(100 / rendered.included.memories)).toBeGreaterThanOrEqual(MIN_EXCERPT_TOKENS);
  });

  it("leaves the memories half the block however many long similar questions there are", () => {
    const similarQuestions = Array.from({ length: 3 }, (_, i) => ({
      content: `How do I keep the ${i}th office plant alive ${"while travelling for weeks ".repeat(5)}?`,
      category: null,
    }));
    const memories = [{ content: longFact(3), memoryType: "fact" }];
    const rendered = renderContext({ similarQuestions, memories }, 300, lexicalTerms("docker build layer caching"));
    expect(rendered.included.memories).toBe(1);
    expect(rendered.markdown).toContain("Docker build layer caching 3");
    expect(rendered.tokens).toBeLessThanOrEqual(300);
    // Without memories the questions may use the whole budget.
    const alone = renderContext({ similarQuestions, memories: [] }, 300);
    expect(alone.included.similarQuestions).toBeGreaterThan(rendered.included.similarQuestions);
    expect(rendered.included.similarQuestions).toBeGreaterThan(0);
    expect(rendered.markdown.indexOf("## Relevant Memories")).toBeGreaterThan(0);
  });
});
