/**
 * Likely duplicate FAQs in the whole knowledge base, however they were made (by hand, by import,
 * by approving a pipeline item): pairs of live FAQs whose questions the same-question decision
 * (src/core/decisions) calls the same question. A similarity threshold alone would not do: on a small
 * model two "How do I …?" questions on different topics sit above 0.85. The pipeline statistics
 * show them (GET /v1/pipeline/stats `duplicates`) beside the pipeline's own duplicate-creation
 * proxy, which looks only at FAQs the pipeline made. Pairs the decision is not sure of are asked of
 * the judge off the request path (duplicates-judged.ts, on the daily cron); the pairs it called the
 * same question are listed here too, with the judge's reason. Adapter-neutral: the store's `list`,
 * `nearest` and `getMany`.
 */
import { calibrate } from "../../core/calibration/calibration";
import { DECISIVE_CONTRASTS } from "../../core/decisions/contrasts";
import { decidePair } from "../../core/scale/pair";
import type { PairLeftovers } from "../../platform/judge/port";
import { errorFields } from "../../platform/observe/log";
import type { Services } from "../../platform/ports/services";
import { faqStore } from "./select";

/** Newest live FAQs checked: one embedding (cached) and one index query each. */
export const DUPLICATE_SCAN = 200;
/** Pairs listed; `likelyDuplicates` counts them all. */
export const DUPLICATE_PAIRS_SHOWN = 20;
/** Nearest other FAQs compared with each: the closest may differ by a code where the next does not. */
const CANDIDATES = 3;
const EMBED_BATCH = 64;

export interface DuplicatePair {
  faqId: string;
  question: string;
  otherFaqId: string;
  otherQuestion: string;
  /** Calibrated similarity of the two questions. */
  similarity: number;
  /** The same-question decision's one line ("same question, score 0.97"), or the judge's ("judge: …"). */
  reason: string;
}

/** A pair the decision is not sure of: close (calibrated ≥ JUDGE_FROM), yet not `same`, and no decisive contrast between them. */
export interface UnsurePair extends DuplicatePair {
  leftovers: PairLeftovers;
}

/** From here up, a pair that is not sure goes to the judge: the ticket pipeline's MERGE level (features/tickets/decide.ts). */
export const JUDGE_FROM = 0.7;

/** The judge's duplicates of a tenant, as the daily cron left them (duplicates-judged.ts). */
export const judgedDuplicatesKey = (tenantId: string) => `duplicates:judged:v1:${tenantId}`;

export interface DuplicateScan {
  /** Live FAQs looked at (the newest DUPLICATE_SCAN) and, of those, compared (the embedder can embed their question). */
  scanned: number;
  checked: number;
  /** Checked FAQs that another live FAQ asks the same question as. */
  likelyDuplicates: number | null;
  rate: number | null;
  /** Most similar first, each pair once. */
  pairs: DuplicatePair[];
  degraded?: string;
}

export async function likelyDuplicateFaqs(services: Services, tenantId: string): Promise<DuplicateScan> {
  return (await scanDuplicates(services, tenantId)).scan;
}

/** The scan, and the pairs it was not sure of (for the judge). */
export async function scanDuplicates(services: Services, tenantId: string): Promise<{ scan: DuplicateScan; unsure: UnsurePair[] }> {
  const { embedder } = services;
  const store = faqStore(services);
  const { rows } = await store.list(tenantId, { limit: DUPLICATE_SCAN });
  const checkable = rows.filter((r) => embedder.canEmbed(r.question));
  const none = { scanned: rows.length, checked: 0, pairs: [] };
  if (checkable.length === 0) return { scan: { ...none, likelyDuplicates: 0, rate: null }, unsure: [] };
  try {
    const questions = new Map(rows.map((r) => [r.id, r.question]));
    const pairs = new Map<string, DuplicatePair>();
    const unsure = new Map<string, UnsurePair>();
    const twins = new Set<string>();
    for (let i = 0; i < checkable.length; i += EMBED_BATCH) {
      const batch = checkable.slice(i, i + EMBED_BATCH);
      const vectors = await embedder.embed(batch.map((r) => r.question));
      const nearest = await Promise.all(
        vectors.map((vector) => store.nearest(tenantId, { vector, model: embedder.model }, CANDIDATES + 1)),
      );
      // A neighbour older than the scanned FAQs: its question is read once.
      const unknown = [...new Set(nearest.flat().map((m) => m.id))].filter((id) => !questions.has(id));
      for (const [id, row] of await store.getMany(tenantId, unknown)) questions.set(id, row.question);
      batch.forEach((row, k) => {
        for (const other of nearest[k]!) {
          const otherQuestion = questions.get(other.id);
          if (other.id === row.id || otherQuestion === undefined) continue;
          const decision = decidePair(row.question, otherQuestion, other.score, embedder.scale);
          const key = row.id < other.id ? `${row.id}|${other.id}` : `${other.id}|${row.id}`;
          const pair = {
            faqId: row.id,
            question: row.question,
            otherFaqId: other.id,
            otherQuestion,
            similarity: Number(calibrate(other.score, embedder.scale.calibration).toFixed(4)),
            reason: decision.reason,
          };
          if (decision.relation === "same") {
            twins.add(row.id);
            if (!pairs.has(key)) pairs.set(key, pair);
          } else if (pair.similarity >= JUDGE_FROM && !decision.evidence.contrasts.some((c) => DECISIVE_CONTRASTS.has(c.kind))) {
            const { onlyA, onlyB, contrasts } = decision.evidence;
            unsure.set(key, { ...pair, leftovers: { onlyTicket: onlyA, onlyFaq: onlyB, differs: contrasts.map((c) => c.detail) } });
          }
        }
      });
    }
    // What the judge called the same question, for FAQs still live with the questions it read.
    for (const judged of (await services.cache.get<DuplicatePair[]>(judgedDuplicatesKey(tenantId), "json")) ?? []) {
      const key = judged.faqId < judged.otherFaqId ? `${judged.faqId}|${judged.otherFaqId}` : `${judged.otherFaqId}|${judged.faqId}`;
      const still = questions.get(judged.faqId) === judged.question && questions.get(judged.otherFaqId) === judged.otherQuestion;
      if (!still || pairs.has(key)) continue;
      pairs.set(key, judged);
      unsure.delete(key);
      if (rows.some((r) => r.id === judged.faqId)) twins.add(judged.faqId);
    }
    const scan = {
      scanned: rows.length,
      checked: checkable.length,
      likelyDuplicates: twins.size,
      rate: twins.size / checkable.length,
      pairs: [...pairs.values()].sort((a, b) => b.similarity - a.similarity).slice(0, DUPLICATE_PAIRS_SHOWN),
    };
    return { scan, unsure: [...unsure.values()].sort((a, b) => b.similarity - a.similarity) };
  } catch (error) {
    services.log.warn("faq_duplicate_scan_failed", errorFields(error));
    return { scan: { ...none, likelyDuplicates: null, rate: null, degraded: "embeddings or vector index unavailable" }, unsure: [] };
  }
}
