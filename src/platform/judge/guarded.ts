/**
 * A model judge made affordable for one tenant: each verdict is cached per pair (the same ticket
 * question against the same FAQ is asked once), and model calls are counted against a per-tenant
 * daily budget; past it, the heuristic decides and the verdict's `judge` says why. The judge's own
 * timeout and fallback (workers-ai.ts) still hold. The heuristic judge is used as it is: it costs
 * nothing.
 *
 * KV has no atomic increment, so two consumers deciding at the same instant may both spend the
 * last call: the budget is a bound on cost to within the queue's concurrency, not an exact count.
 */
import type { Clock } from "../../core/base/clock";
import { sha256Hex } from "../../core/base/crypto";
import { heuristicJudge } from "./heuristic";
import type { AnswerVerdict, Judge, MergeVerdict } from "./port";

/** Model calls per tenant and UTC day; the queue's retries and every kind of question count. */
export const JUDGE_DAILY_BUDGET = 500;
/** How long a verdict is reused: the FAQ's answer may change, and a changed text is another key anyway. */
export const JUDGE_CACHE_TTL_SECONDS = 30 * 24 * 3600;
const BUDGET_TTL_SECONDS = 2 * 24 * 3600;

export interface GuardOptions {
  cache: KVNamespace;
  tenantId: string;
  clock: Clock;
  dailyBudget?: number;
}

export function guardedJudge(judge: Judge, { cache, tenantId, clock, dailyBudget = JUDGE_DAILY_BUDGET }: GuardOptions): Judge {
  if (judge.kind === heuristicJudge.kind) return judge;

  /** A cached verdict, or the model's within the budget, or the heuristic's (`fallback`) past it. */
  async function verdict<T extends { judge: string }>(parts: string[], ask: () => Promise<T>, fallback: () => Promise<T>): Promise<T> {
    const key = `judge:v1:${tenantId}:${await sha256Hex([judge.kind, ...parts].join("\u0000"))}`;
    const cached = await cache.get<T>(key, "json");
    if (cached) return cached;
    const day = new Date(clock.now()).toISOString().slice(0, 10);
    const budgetKey = `judge-budget:${tenantId}:${day}`;
    const spent = Number((await cache.get(budgetKey)) ?? 0);
    if (spent >= dailyBudget) {
      const local = await fallback();
      return { ...local, judge: `${judge.kind} → heuristic (daily budget of ${dailyBudget} model calls spent)` };
    }
    await cache.put(budgetKey, String(spent + 1), { expirationTtl: BUDGET_TTL_SECONDS });
    const answer = await ask();
    // A fallback verdict (the model timed out or answered nonsense) is not the model's: ask again next time.
    if (answer.judge === judge.kind) await cache.put(key, JSON.stringify(answer), { expirationTtl: JUDGE_CACHE_TTL_SECONDS });
    return answer;
  }

  return {
    kind: judge.kind,
    answerAddsInformation: (ticket, faq): Promise<AnswerVerdict> =>
      verdict(
        ["answer", ticket.question, ticket.answer, faq.question, faq.answer],
        () => judge.answerAddsInformation(ticket, faq),
        () => heuristicJudge.answerAddsInformation(ticket, faq),
      ),
    mergeOrNew: (ticket, faq, similarity, leftovers): Promise<MergeVerdict> =>
      verdict(
        ["merge", ticket.question, faq.question],
        () => judge.mergeOrNew(ticket, faq, similarity, leftovers),
        () => heuristicJudge.mergeOrNew(ticket, faq, similarity),
      ),
  };
}
