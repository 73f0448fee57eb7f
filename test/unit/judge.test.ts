import { afterEach, describe, expect, it } from "vitest";
import { forgetBreakers } from "../../src/platform/deadlines/breaker";
import { heuristicJudge } from "../../src/platform/judge/heuristic";
import { selectJudge } from "../../src/adapters/judge/select";
import { JUDGE_SYSTEM_PROMPT, type TextGenerator, workersAiJudge } from "../../src/adapters/judge/workers-ai";

const faq = { question: "How long do refunds take?", answer: "Within 5 business days." };
const ticket = { question: "refund time?", answer: "5 days, 8 for SEPA transfers." };
const MODEL = "@cf/meta/llama-3.1-8b-instruct";

/** A stand-in for the AI binding at the port: records requests, answers in Workers AI's documented shapes. */
function stubAi(
  answer: (inputs: Record<string, any>) => unknown,
): TextGenerator & { calls: { model: string; inputs: Record<string, any> }[] } {
  const calls: { model: string; inputs: Record<string, any> }[] = [];
  return {
    calls,
    run: async (model, inputs) => {
      calls.push({ model, inputs: inputs as Record<string, any> });
      return answer(inputs as Record<string, any>);
    },
  };
}

describe("Workers AI judge: the documented request and response shapes", () => {
  afterEach(forgetBreakers);

  it("asks in JSON mode with the documented prompt and a JSON schema", async () => {
    const ai = stubAi(() => ({ response: { action: "NEW", rationale: "a different question" } }));
    await workersAiJudge(ai).mergeOrNew(ticket, faq, 0.75);
    const { model, inputs } = ai.calls[0]!;
    expect(model).toBe(MODEL);
    expect(inputs.messages[0]).toEqual({ role: "system", content: JUDGE_SYSTEM_PROMPT });
    expect(inputs.messages[1].content).toContain("Ticket question: refund time?");
    expect(inputs.response_format).toMatchObject({
      type: "json_schema",
      json_schema: { type: "object", required: ["action", "rationale"], properties: { action: { enum: ["MERGE", "NEW"] } } },
    });
  });

  it("reads JSON mode's object response ({ response: { … } })", async () => {
    const ai = stubAi(() => ({
      response: { action: "NEW", rationale: "a different question" },
      usage: { prompt_tokens: 80, completion_tokens: 12, total_tokens: 92 },
    }));
    expect(await workersAiJudge(ai).mergeOrNew(ticket, faq, 0.75)).toEqual({
      action: "NEW",
      rationale: "a different question",
      judge: `workers-ai:${MODEL}`,
    });
    const adds = stubAi(() => ({
      response: { addsInformation: true, rationale: "SEPA takes longer", suggestedAnswer: "Within 5 business days; 8 for SEPA." },
    }));
    expect(await workersAiJudge(adds).answerAddsInformation(ticket, faq)).toEqual({
      addsInformation: true,
      rationale: "SEPA takes longer",
      suggestedAnswer: "Within 5 business days; 8 for SEPA.",
      judge: `workers-ai:${MODEL}`,
    });
  });

  it("still reads a JSON object inside a text response ({ response: string }), fenced or not", async () => {
    const ai = stubAi(() => ({ response: '```json\n{"addsInformation": false, "rationale": "same facts"}\n```' }));
    expect(await workersAiJudge(ai).answerAddsInformation(ticket, faq)).toMatchObject({
      addsInformation: false,
      judge: `workers-ai:${MODEL}`,
    });
  });

  it("validates the verdict: a wrong type or value is asked again once, then the heuristic decides", async () => {
    for (const response of [{ action: "MAYBE", rationale: "?" }, { action: "MERGE" }, { action: "MERGE", rationale: 42 }, "[1,2]", null]) {
      const ai = stubAi(() => ({ response }));
      const verdict = await workersAiJudge(ai).mergeOrNew(ticket, faq, 0.75);
      expect(ai.calls).toHaveLength(2);
      expect(verdict).toEqual({
        ...(await heuristicJudge.mergeOrNew(ticket, faq, 0.75)),
        judge: `workers-ai:${MODEL} → heuristic (unusable model answer)`,
      });
    }
  });

  it("gives up on a model that does not answer within the timeout, says so, and skips it for the next tickets", async () => {
    const ai = stubAi(() => new Promise(() => {}));
    const judge = workersAiJudge(ai, { timeoutMs: 30 });
    const started = Date.now();
    const verdict = await judge.answerAddsInformation(ticket, faq);
    expect(Date.now() - started).toBeLessThan(2000);
    expect(verdict.judge).toBe(`workers-ai:${MODEL} → heuristic (the judge model gave no answer within 30 ms)`);
    expect(ai.calls).toHaveLength(1);
    const next = await judge.mergeOrNew(ticket, faq, 0.75);
    expect(next.judge).toMatch(/→ heuristic \(the judge model is skipped for 15 s more: it missed a deadline\)$/);
    expect(ai.calls).toHaveLength(1);
  });

  it("treats JSON mode's 'couldn't be met' error like an unusable answer", async () => {
    const ai = stubAi(() => {
      throw new Error("JSON Mode couldn't be met");
    });
    expect((await workersAiJudge(ai).mergeOrNew(ticket, faq, 0.75)).judge).toBe(`workers-ai:${MODEL} → heuristic (unusable model answer)`);
  });
});

describe("selectJudge: the LLM judge by default when a Workers AI binding is present", () => {
  const ai = stubAi(() => ({ response: {} }));
  it.each([
    [undefined, ai, `workers-ai:${MODEL}`],
    ["auto", ai, `workers-ai:${MODEL}`],
    ["", ai, `workers-ai:${MODEL}`],
    ["auto", undefined, "heuristic"],
    [undefined, undefined, "heuristic"],
    ["heuristic", ai, "heuristic"],
    ["workers-ai", ai, `workers-ai:${MODEL}`],
  ])("JUDGE=%j with%s binding → %s", (setting, binding, kind) => {
    expect(selectJudge(setting, binding).kind).toBe(kind);
  });

  it("refuses workers-ai without a binding and an unknown name", () => {
    expect(() => selectJudge("workers-ai", undefined)).toThrow(/AI binding/);
    expect(() => selectJudge("gpt", ai)).toThrow(/unknown JUDGE/);
  });
});
