/**
 * The closest FAQ question or variant to a ticket's question, and how similar it is.
 * Candidates come from the FAQ search itself (src/features/faqs/search.ts: canonical + variants, BM25 +
 * vector); then the ticket question is compared with each candidate's canonical question and
 * every one of its variants, and the best pair wins:
 * - calibrated similarity (`calibrate(cosine, embedder.scale.calibration)`) from the exact cosines of
 *   the stored vectors (the FAQ store port's `storedCosines`: the vector index on D1, the rows'
 *   pgvector columns on Postgres); a candidate text with no stored vector yet is embedded here;
 * - text the embedder cannot embed (CJK on the English-only local model) is compared by shared
 *   content words (`lexicalSimilarity`), and the match says `method: "lexical"`.
 * An embedder or index fault is not an answer: it throws PipelineUnavailable and the queue
 * message is retried later, never decided on partial evidence.
 */
import { calibrate } from "../../core/calibration/calibration";
import { decidePair } from "../../core/scale/pair";
import type { SameQuestionDecision } from "../../core/decisions/same-question";
import { faqStore } from "../faqs/select";
import type { FaqRow, VariantRow } from "../faqs/types";
import { cosine } from "../../core/ranking/cosine";
import { lexicalSimilarity, lexicalTerms } from "../../core/ranking/lexical";
import type { Services } from "../../platform/ports/services";
import { phrasingKey } from "../../core/text/normalize";
import { type SameQuestion, sameQuestionVerdict, similarityBand, type SimilarityBand } from "./decide";

/** FAQs the search hands over as candidates. */
export const MATCH_CANDIDATES = 10;

export class PipelineUnavailable extends Error {
  override name = "PipelineUnavailable";
}

export interface TicketMatch {
  faq: FaqRow;
  /** The variant that matched best, or null when the canonical question did. */
  variant: { id: string; text: string } | null;
  similarity: number;
  /** The raw cosine behind `similarity`; null for a lexical match. */
  rawCosine: number | null;
  method: "calibrated" | "raw" | "lexical";
  /** The matched FAQ already has the question's phrasing, as its question or a variant (case, punctuation and spacing aside). */
  phrasingKnown: boolean;
}

export async function findBestMatch(services: Services, tenantId: string, question: string): Promise<TicketMatch | null> {
  const { embedder } = services;
  const store = faqStore(services);
  const found = await store.search(tenantId, { query: question, limit: MATCH_CANDIDATES });
  if (found.degraded.length > 0) throw new PipelineUnavailable(`FAQ search degraded: ${found.degraded.join(", ")}`);
  if (found.results.length === 0) return null;
  const faqs = found.results.map((r) => r.faq);
  const variants = await store.variantsOf(
    tenantId,
    faqs.map((f) => f.id),
  );

  const texts: { faq: FaqRow; variant: VariantRow | null; text: string }[] = [
    ...faqs.map((faq) => ({ faq, variant: null, text: faq.question })),
    ...variants.flatMap((v) => {
      const faq = faqs.find((f) => f.id === v.faq_id);
      return faq ? [{ faq, variant: v, text: v.variant_text }] : [];
    }),
  ];

  const scored: { i: number; similarity: number; rawCosine: number | null; method: TicketMatch["method"] }[] = [];
  const questionTerms = lexicalTerms(question);
  const lexical = (i: number) =>
    scored.push({ i, similarity: lexicalSimilarity(questionTerms, lexicalTerms(texts[i]!.text)), rawCosine: null, method: "lexical" });

  if (!embedder.canEmbed(question)) {
    texts.forEach((_, i) => lexical(i));
  } else {
    // The search embedded the question already (it was not degraded, so the vector is there).
    const vector = found.queryVector;
    if (!vector) throw new PipelineUnavailable("the FAQ search did not embed the question");
    let canonical: Map<string, number>;
    let variant: Map<string, number>;
    try {
      ({ faqs: canonical, variants: variant } = await store.storedCosines(
        tenantId,
        { vector, model: embedder.model },
        { faqIds: faqs.map((f) => f.id), variantIds: variants.map((v) => v.id) },
      ));
    } catch (error) {
      throw new PipelineUnavailable(`embeddings or vector index: ${error instanceof Error ? error.message : String(error)}`);
    }
    const method = embedder.scale.calibration ? "calibrated" : "raw";
    const missing: number[] = [];
    texts.forEach((t, i) => {
      if (!embedder.canEmbed(t.text)) return lexical(i);
      const raw = t.variant ? variant.get(t.variant.id) : canonical.get(t.faq.id);
      if (raw === undefined) missing.push(i);
      else scored.push({ i, similarity: calibrate(raw, embedder.scale.calibration), rawCosine: raw, method });
    });
    if (missing.length > 0) {
      let embedded: Float32Array[];
      try {
        embedded = await embedder.embed(missing.map((i) => texts[i]!.text));
      } catch (error) {
        throw new PipelineUnavailable(`embeddings: ${error instanceof Error ? error.message : String(error)}`);
      }
      missing.forEach((i, k) => {
        const raw = cosine(vector, embedded[k]!);
        scored.push({ i, similarity: calibrate(raw, embedder.scale.calibration), rawCosine: raw, method });
      });
    }
  }

  const best = scored.reduce<(typeof scored)[number] | null>((b, s) => (b === null || s.similarity > b.similarity ? s : b), null);
  if (!best) return null;
  const t = texts[best.i]!;
  const phrasing = phrasingKey(question);
  return {
    faq: t.faq,
    variant: t.variant ? { id: t.variant.id, text: t.variant.variant_text } : null,
    similarity: best.similarity,
    rawCosine: best.rawCosine,
    method: best.method,
    phrasingKnown: texts.some((other) => other.faq.id === t.faq.id && phrasingKey(other.text) === phrasing),
  };
}

export interface Assessment {
  match: TicketMatch | null;
  band: SimilarityBand;
  /** The same-question decision between the question and what it matched, with its evidence; null without a match. */
  sameQuestion: SameQuestionDecision | null;
  same: SameQuestion;
}

/** The question against the knowledge base as it is now: best match, its band and the same-question verdict (the consumer and the review desk's re-decision). */
export async function assess(services: Services, tenantId: string, question: string): Promise<Assessment> {
  const match = await findBestMatch(services, tenantId, question);
  const sameQuestion = match
    ? decidePair(question, match.variant?.text ?? match.faq.question, match.rawCosine, services.embedder.scale)
    : null;
  return {
    match,
    band: similarityBand(match?.similarity ?? null),
    sameQuestion,
    same: sameQuestionVerdict(sameQuestion, match?.phrasingKnown ?? false),
  };
}
