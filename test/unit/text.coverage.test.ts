import { describe, expect, it } from "vitest";
import { keywordCoverage, keywordUnits } from "../../src/core/text/coverage";
import { expandQuery } from "../../src/core/text/expand";

const coverage = (query: string, document: string) => keywordCoverage(keywordUnits(expandQuery(query)), document);

describe("keywordCoverage", () => {
  it("is the share of the query's content terms the document contains", () => {
    const q = "What's the best way to deploy on Vercel?";
    expect(coverage(q, "What are best practices for state management?")).toBe(0.25);
    expect(coverage(q, "How do I deploy to Vercel?")).toBe(0.5);
    expect(coverage(q, "Deploying the best way on Vercel")).toBe(1);
  });

  it("counts Chinese by bigram, and a variant only for the word it translates", () => {
    expect(coverage("数据库密码怎么重置？", "怎么重置数据库密码？")).toBe(1);
    expect(coverage("数据库密码怎么重置？", "数据分析用什么工具？")).toBeCloseTo(0.2);
    expect(coverage("数据库密码怎么重置？", "How do I rotate the database password?")).toBeCloseTo(0.2);
    expect(coverage("我是什么用户", "I'm an Android user")).toBe(0.5);
  });

  it("is 0 for a query without content words", () => {
    expect(coverage("what is it", "anything")).toBe(0);
  });
});
