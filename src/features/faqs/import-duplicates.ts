/**
 * An import's lines that ask a question already asked: by an earlier line of the same file (the
 * same text once case, width, punctuation and spacing are folded), or by a live FAQ of the tenant
 * (the same-question decision, src/core/decisions, says `same` for the line's question and the FAQ's,
 * or the folded texts are equal). Such a line is skipped with DUPLICATE_QUESTION: an import run
 * twice, or a file that repeats the knowledge base, used to make a second FAQ for each question.
 * Only a sure `same` skips a line (the decision acts alone only when it is sure): a question that
 * is merely close is imported, and the automatic links it gets (import-links.ts) show the neighbour.
 *
 * Only plain lines are checked: a line that keeps an id is an export's copy of a stored FAQ (moving
 * a knowledge base), which its id already keeps from being written twice (ID_UNAVAILABLE), and
 * which must arrive as it left, duplicates and all.
 *
 * Text the embedder cannot embed (Chinese on the English-only local model) is compared with the
 * file's other lines only: finding the knowledge base's candidates for it would take a search per line.
 * Adapter-neutral: the store's `nearest` and `getMany`, which both backends answer.
 */
import { calibrate } from "../../core/calibration/calibration";
import { decidePair } from "../../core/scale/pair";
import { errorFields } from "../../platform/observe/log";
import type { Services } from "../../platform/ports/services";
import { IMPORT_EMBED_BATCH } from "./import";
import type { FaqStore } from "./port";
import { foldText } from "./store";

/** Nearest live FAQs compared with each line: the closest seldom differs by a contrast the second lacks, but it can. */
export const DUPLICATE_CANDIDATES = 3;

export interface DuplicateLine {
  line: number;
  code: "DUPLICATE_QUESTION";
  message: string;
  /** The live FAQ that asks it (absent when an earlier line of the file does). */
  duplicateOf?: { id: string; question: string; similarity: number };
}

export async function duplicateLines<L extends { line: number; question: string; id?: string | undefined }>(
  services: Services,
  store: FaqStore,
  tenantId: string,
  lines: readonly L[],
): Promise<{
  keep: L[];
  duplicates: DuplicateLine[];
  /** false: the knowledge base could not be compared (embedder or index down). */ checked: boolean;
}> {
  const duplicates = new Map<number, DuplicateLine>();
  const firstLine = new Map<string, number>();
  for (const item of lines) {
    if (item.id !== undefined) continue;
    const folded = foldText(item.question);
    const earlier = firstLine.get(folded);
    if (earlier === undefined) firstLine.set(folded, item.line);
    else
      duplicates.set(item.line, {
        line: item.line,
        code: "DUPLICATE_QUESTION",
        message: `Line ${earlier} of this import asks the same question; this line was not imported`,
      });
  }
  const { embedder } = services;
  const checkable = lines.filter((item) => item.id === undefined && !duplicates.has(item.line) && embedder.canEmbed(item.question));
  let checked = true;
  try {
    await againstKnowledgeBase(services, store, tenantId, checkable, duplicates);
  } catch (error) {
    // The import goes on without it (its rows are indexed later, as when the embedder fails there): the answer says it was not done.
    services.log.warn("faq_import_duplicate_check_failed", errorFields(error));
    checked = false;
  }
  return { keep: lines.filter((item) => !duplicates.has(item.line)), duplicates: [...duplicates.values()], checked };
}

async function againstKnowledgeBase(
  services: Services,
  store: FaqStore,
  tenantId: string,
  checkable: readonly { line: number; question: string }[],
  duplicates: Map<number, DuplicateLine>,
): Promise<void> {
  const { embedder } = services;
  for (let i = 0; i < checkable.length; i += IMPORT_EMBED_BATCH) {
    const batch = checkable.slice(i, i + IMPORT_EMBED_BATCH);
    const vectors = await embedder.embed(batch.map((item) => item.question));
    const nearest = await Promise.all(
      vectors.map((vector) => store.nearest(tenantId, { vector, model: embedder.model }, DUPLICATE_CANDIDATES)),
    );
    const rows = await store.getMany(tenantId, [...new Set(nearest.flat().map((m) => m.id))]);
    batch.forEach((item, k) => {
      for (const candidate of nearest[k]!) {
        const faq = rows.get(candidate.id);
        if (!faq) continue;
        const same =
          foldText(faq.question) === foldText(item.question) ||
          decidePair(item.question, faq.question, candidate.score, embedder.scale).relation === "same";
        if (!same) continue;
        const similarity = Number(calibrate(candidate.score, embedder.scale.calibration).toFixed(4));
        duplicates.set(item.line, {
          line: item.line,
          code: "DUPLICATE_QUESTION",
          message: `FAQ ${faq.id} already asks this question ("${faq.question}"); this line was not imported`,
          duplicateOf: { id: faq.id, question: faq.question, similarity },
        });
        return;
      }
    });
  }
}
