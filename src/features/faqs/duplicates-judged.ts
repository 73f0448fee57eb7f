/**
 * Likely duplicate FAQs the same-question decision is not sure of, asked of the judge off the request
 * path (issue 42): the daily cron takes each tenant's unsure pairs (close, not `same`, no decisive
 * contrast; duplicates.ts) and asks the production model "same question?" through the guarded judge
 * (a verdict cached per pair, a per-tenant daily budget, the model's own deadline). The pairs the
 * model itself called the same question are kept in KV, and "likely duplicates" lists them beside
 * the decision's own, with the judge's reason. A verdict that fell back to the heuristic (budget
 * spent, the model unavailable) lists nothing: the heuristic adds nothing the decision lacks, so a
 * deployment without a model judge asks nothing at all.
 */
import { guardedJudge } from "../../platform/judge/guarded";
import { heuristicJudge } from "../../platform/judge/heuristic";
import type { Services } from "../../platform/ports/services";
import { tenantsPlacedHere } from "../placement/directory";
import { type DuplicatePair, judgedDuplicatesKey, scanDuplicates } from "./duplicates";

/** Pairs asked per tenant and run, most similar first: a bound on one run's model calls (the budget bounds a day's). */
export const JUDGED_PAIRS_PER_RUN = 20;
/** How long the judged list is kept without a run renewing it. */
const JUDGED_TTL_SECONDS = 7 * 24 * 3600;

export type JudgedDuplicates = {
  asked: number;
  same: number;
};

export async function judgeUnsureDuplicates(services: Services, tenantId: string): Promise<JudgedDuplicates> {
  if (services.judge.kind === heuristicJudge.kind) return { asked: 0, same: 0 };
  const { unsure } = await scanDuplicates(services, tenantId);
  const judge = guardedJudge(services.judge, { cache: services.cache, tenantId, clock: services.clock });
  const same: DuplicatePair[] = [];
  const asked = unsure.slice(0, JUDGED_PAIRS_PER_RUN);
  for (const { leftovers, ...pair } of asked) {
    const verdict = await judge.mergeOrNew(
      { question: pair.question, answer: "" },
      { question: pair.otherQuestion, answer: "" },
      pair.similarity,
      leftovers,
    );
    if (verdict.action === "MERGE" && verdict.judge === services.judge.kind) same.push({ ...pair, reason: `judge: ${verdict.rationale}` });
  }
  await services.cache.put(judgedDuplicatesKey(tenantId), JSON.stringify(same), { expirationTtl: JUDGED_TTL_SECONDS });
  return { asked: asked.length, same: same.length };
}

/** The daily cron: every tenant's unsure pairs, JUDGED_PAIRS_PER_RUN each. */
export async function judgeDuplicatesAllTenants(services: Services): Promise<{ tenants: number } & JudgedDuplicates> {
  const total = { tenants: 0, asked: 0, same: 0 };
  if (services.judge.kind === heuristicJudge.kind) return total;
  for (const id of await tenantsPlacedHere(services)) {
    const judged = await judgeUnsureDuplicates(services, id);
    total.tenants++;
    total.asked += judged.asked;
    total.same += judged.same;
  }
  return total;
}
