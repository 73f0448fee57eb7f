/**
 * Likely duplicate FAQs in the whole knowledge base, however they were made (by hand, by import,
 * by approving a pipeline item): pairs of live FAQs whose questions the same-question decision
 * (src/core/decisions) calls the same question. A similarity threshold alone would not do: on a small
 * model two "How do I …?" questions on different topics sit above 0.85. The pipeline statistics
 * show them (GET /v1/pipeline/stats `duplicates`) beside the pipeline's own duplicate-creation
 * proxy, which looks only at FAQs the pipeline made. Adapter-neutral: the store's `list`,
 * `nearest` and `getMany`.
 */
import { calibrate } from "../../core/calibration/calibration";
import { decidePair } from "../../core/scale/pair";
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
  /** The same-question decision's one line ("same question, score 0.97"). */
  reason: string;
}

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
  const { embedder } = services;
  const store = faqStore(services);
  const { rows } = await store.list(tenantId, { limit: DUPLICATE_SCAN });
  const checkable = rows.filter((r) => embedder.canEmbed(r.question));
  const none = { scanned: rows.length, checked: 0, pairs: [] };
  if (checkable.length === 0) return { ...none, likelyDuplicates: 0, rate: null };
  try {
    const questions = new Map(rows.map((r) => [r.id, r.question]));
    const pairs = new Map<string, DuplicatePair>();
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
          if (decision.relation !== "same") continue;
          twins.add(row.id);
          const key = row.id < other.id ? `${row.id}|${other.id}` : `${other.id}|${row.id}`;
          if (!pairs.has(key))
            pairs.set(key, {
              faqId: row.id,
              question: row.question,
              otherFaqId: other.id,
              otherQuestion,
              similarity: Number(calibrate(other.score, embedder.scale.calibration).toFixed(4)),
              reason: decision.reason,
            });
        }
      });
    }
    return {
      scanned: rows.length,
      checked: checkable.length,
      likelyDuplicates: twins.size,
      rate: twins.size / checkable.length,
      pairs: [...pairs.values()].sort((a, b) => b.similarity - a.similarity).slice(0, DUPLICATE_PAIRS_SHOWN),
    };
  } catch (error) {
    services.log.warn("faq_duplicate_scan_failed", errorFields(error));
    return { ...none, likelyDuplicates: null, rate: null, degraded: "embeddings or vector index unavailable" };
  }
}
