import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { fixedClock } from "../../src/core/base/clock";
import { guardedJudge } from "../../src/platform/judge/guarded";
import { heuristicJudge } from "../../src/platform/judge/heuristic";
import { type TextGenerator, workersAiJudge } from "../../src/adapters/judge/workers-ai";

const MODEL = "@cf/meta/llama-3.1-8b-instruct";
const JUDGE = `workers-ai:${MODEL}`;
const faq = { question: "How do I share my calendar?", answer: "Settings → Sharing." };
const ticket = { question: "How do I share my team's calendar?", answer: "Team settings → Sharing." };

/** The AI binding at the port, answering in Workers AI's documented JSON-mode shape and counting calls. */
function countingAi(response: unknown): TextGenerator & { calls: string[] } {
  const calls: string[] = [];
  return {
    calls,
    run: async (_model, inputs) => {
      calls.push(inputs.messages[1]!.content);
      return { response };
    },
  };
}

let tenants = 0;
const tenant = () => `t_guard_${++tenants}_${Date.now()}`;

describe("guardedJudge: a model verdict per pair, within a daily budget per tenant", () => {
  it("asks the model once per pair and reuses its verdict", async () => {
    const ai = countingAi({ action: "NEW", rationale: "another owner's calendar" });
    const judge = guardedJudge(workersAiJudge(ai), { cache: env.CACHE, tenantId: tenant(), clock: fixedClock(Date.UTC(2026, 11, 6)) });
    const first = await judge.mergeOrNew(ticket, faq, 0.8);
    const again = await judge.mergeOrNew(ticket, faq, 0.8);
    expect(first).toEqual({ action: "NEW", rationale: "another owner's calendar", judge: JUDGE });
    expect(again).toEqual(first);
    expect(ai.calls).toHaveLength(1);
    await judge.mergeOrNew({ ...ticket, question: "Can I share my calendar with a guest?" }, faq, 0.8);
    expect(ai.calls).toHaveLength(2);
  });

  it("gives the model the alignment's leftovers beside both texts", async () => {
    const ai = countingAi({ action: "NEW", rationale: "another owner" });
    const judge = guardedJudge(workersAiJudge(ai), { cache: env.CACHE, tenantId: tenant(), clock: fixedClock(0) });
    await judge.mergeOrNew(ticket, faq, 0.8, { onlyTicket: ["team"], onlyFaq: [], differs: [] });
    expect(ai.calls[0]).toContain("Ticket question: How do I share my team's calendar?");
    expect(ai.calls[0]).toContain("Words only the ticket question says: team\n");
    expect(ai.calls[0]).not.toContain("only the FAQ question says");
  });

  it("past the tenant's daily budget the heuristic decides and says why; the next day the model again; other tenants unaffected", async () => {
    const ai = countingAi({ action: "MERGE", rationale: "same question" });
    const clock = fixedClock(Date.UTC(2026, 11, 6, 23));
    const id = tenant();
    const judge = guardedJudge(workersAiJudge(ai), { cache: env.CACHE, tenantId: id, clock, dailyBudget: 2 });
    const ask = (n: number) => judge.mergeOrNew({ ...ticket, question: `How do I share calendar ${n}?` }, faq, 0.8);
    expect((await ask(1)).judge).toBe(JUDGE);
    expect((await ask(2)).judge).toBe(JUDGE);
    const spent = await ask(3);
    expect(spent).toEqual({
      ...(await heuristicJudge.mergeOrNew({ ...ticket, question: "How do I share calendar 3?" }, faq, 0.8)),
      judge: `${JUDGE} → heuristic (daily budget of 2 model calls spent)`,
    });
    expect(ai.calls).toHaveLength(2);
    // A cached verdict costs nothing, even past the budget.
    expect((await ask(1)).judge).toBe(JUDGE);
    const other = guardedJudge(workersAiJudge(ai), { cache: env.CACHE, tenantId: tenant(), clock, dailyBudget: 2 });
    expect((await other.mergeOrNew(ticket, faq, 0.8)).judge).toBe(JUDGE);
    clock.advance(3600_000);
    expect((await ask(4)).judge).toBe(JUDGE);
  });

  it("does not keep a fallback verdict: a model that failed is asked again next time", async () => {
    let broken = true;
    const ai: TextGenerator = {
      run: async () => {
        if (broken) throw new Error("JSON Mode couldn't be met");
        return { response: { addsInformation: false, rationale: "same facts" } };
      },
    };
    const judge = guardedJudge(workersAiJudge(ai), { cache: env.CACHE, tenantId: tenant(), clock: fixedClock(0) });
    expect((await judge.answerAddsInformation(ticket, faq)).judge).toBe(`${JUDGE} → heuristic (unusable model answer)`);
    broken = false;
    expect(await judge.answerAddsInformation(ticket, faq)).toEqual({ addsInformation: false, rationale: "same facts", judge: JUDGE });
  });

  it("leaves the heuristic judge as it is (it costs nothing)", () => {
    expect(guardedJudge(heuristicJudge, { cache: env.CACHE, tenantId: tenant(), clock: fixedClock(0) })).toBe(heuristicJudge);
  });
});
