import { describe, expect, it } from "vitest";
import type { FaqRow } from "../../src/features/faqs/types";
import { applyFaqChange } from "../../src/features/faqs/update-rule";

const current: FaqRow = {
  seq: 7,
  id: "faq_1",
  tenant_id: "t1",
  question: "How do refunds work?",
  answer: "Within 5 days.",
  tags: '["billing"]',
  metadata: "{}",
  version: 1,
  created_by: "k1",
  created_at: 1_000,
  updated_by: "k1",
  updated_at: 1_000,
  deleted_at: null,
  index_state: "indexed",
};
const at = { by: "k2", now: 2_000, canEmbed: (text: string) => !/\p{Script=Han}/u.test(text) };

describe("applyFaqChange: what an FAQ change does, on every store", () => {
  it("is no change when nothing differs, metadata included", () => {
    expect(applyFaqChange(current, { question: current.question, tags: ["billing"] }, at)).toBeNull();
  });

  it("a new answer is new content (a version) but keeps the question's vector", () => {
    const update = applyFaqChange(current, { answer: "Within 3 days." }, at)!;
    expect(update).toMatchObject({ contentChanged: true, questionChanged: false });
    expect(update.next).toMatchObject({ answer: "Within 3 days.", updated_by: "k2", updated_at: 2_000, index_state: current.index_state });
  });

  it("a new question is embedded again, or searched by keyword when the model cannot embed it", () => {
    expect(applyFaqChange(current, { question: "How long do refunds take?" }, at)!.next.index_state).toBe("pending");
    expect(applyFaqChange(current, { question: "怎么退款?" }, at)!.next.index_state).toBe("lexical_only");
  });

  it("metadata alone changes the row but not its content: no version", () => {
    const update = applyFaqChange(current, { metadata: { owner: "desk" } }, at)!;
    expect(update).toMatchObject({ contentChanged: false, questionChanged: false });
    expect(JSON.parse(update.next.metadata)).toEqual({ owner: "desk" });
  });
});
