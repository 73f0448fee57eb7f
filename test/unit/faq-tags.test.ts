import { describe, expect, it } from "vitest";
import { TAG_PATTERN, toFaqTags } from "../../src/features/faqs/tags";

describe("toFaqTags", () => {
  it("keeps a helpdesk's tags that can be FAQ tags, trimmed and lower-cased, once each", () => {
    expect(toFaqTags([" Billing ", "billing", "refunds/eu", "k=B", "Billing Issue", "1s(", "", "Ünïcode"])).toEqual([
      "billing",
      "refunds/eu",
      "ünïcode",
    ]);
    expect(toFaqTags(["x".repeat(65)])).toEqual([]);
  });

  it("never returns a tag the FAQ routes would refuse, and at most 32", () => {
    const many = Array.from({ length: 40 }, (_, i) => `Tag-${i}`);
    const tags = toFaqTags([...many, "a b", "(x)"]);
    expect(tags).toHaveLength(32);
    expect(tags.every((t) => TAG_PATTERN.test(t) && t === t.toLowerCase())).toBe(true);
  });
});
