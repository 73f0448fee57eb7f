/**
 * The labelled pairs a tenant already holds, gathered in bounded steps (job.ts runs them across
 * invocations):
 *
 *   faqs      the knowledge base: each variant and its FAQ's question are the same question
 *             (paraphrase); the nearest other FAQs, by the vector list and by shared words, and two
 *             variants of each, are near-topic different questions (related) unless the two are
 *             linked; one other FAQ that shares no content word is unrelated. Measured on the
 *             vectors already stored.
 *   reviews   people's decisions: a staged MERGE approved means its ticket's question and the FAQ's
 *             are the same (paraphrase); rejected, a different question (related).
 *   uploaded  pairs an admin uploaded (POST /v1/admin/calibration/pairs).
 */
import type { Embedder } from "../../platform/ports/embedder";
import type { FaqStore } from "../faqs/port";
import { lexicalSimilarity, lexicalTerms } from "../../core/ranking/lexical";
import type { PipelineStore } from "../tickets/port";
import type { Band } from "../../core/calibration/bands";
import { hash32 } from "../../core/calibration/fit";

export const SOURCES = ["faqs", "reviews", "uploaded"] as const;
export type Source = (typeof SOURCES)[number];

export interface PairRow {
  source: Source;
  groupKey: string;
  label: Band;
  a: string;
  b: string;
  /** The model's cosine when the collector could read it off stored vectors; else measured later. */
  raw: number | null;
}

/** FAQs read per step: each costs one embedding (usually cached), a nearest query and a cosine query. */
export const FAQS_PER_STEP = 40;
/** At most this many FAQs (the newest) speak for a knowledge base: bounds a fit's pairs and time. */
export const MAX_FAQS = 2000;
/** Nearest other FAQs taken as hard negatives, from each list. */
const NEIGHBOURS = 2;
/** Variants of each such neighbour taken as hard negatives too. */
const NEIGHBOUR_VARIANTS = 2;
/** At most this many reviewed items and uploaded pairs are read. */
export const MAX_REVIEWS = 2000;
export const MAX_UPLOADED = 5000;

export interface FaqsCursor {
  /** Only FAQs with seq below this (list order: newest first); null when done. */
  beforeSeq: number | null;
  seen: number;
}

interface FaqBrief {
  seq: number;
  id: string;
  question: string;
  terms: string[];
}

/** Every live FAQ's question (up to MAX_FAQS, newest first), with its content terms. */
async function allQuestions(store: FaqStore, tenantId: string): Promise<FaqBrief[]> {
  const out: FaqBrief[] = [];
  let beforeSeq: number | undefined;
  while (out.length < MAX_FAQS) {
    const { rows, more } = await store.list(tenantId, { limit: 200, beforeSeq });
    out.push(...rows.map((r) => ({ seq: r.seq, id: r.id, question: r.question, terms: lexicalTerms(r.question) })));
    if (!more || rows.length === 0) break;
    beforeSeq = rows[rows.length - 1]!.seq;
  }
  return out.slice(0, MAX_FAQS);
}

/**
 * One step of the knowledge-base source: the next FAQS_PER_STEP FAQs after `cursor`, each with its
 * variants (paraphrase), its nearest other FAQs by vector and by shared words (related) and one
 * other FAQ sharing no content word (unrelated). Returns the pairs and the next cursor.
 */
export async function collectFaqPairs(
  store: FaqStore,
  embedder: Embedder,
  tenantId: string,
  cursor: FaqsCursor,
): Promise<{ pairs: PairRow[]; cursor: FaqsCursor }> {
  const all = await allQuestions(store, tenantId);
  const page = all.filter((f) => cursor.beforeSeq === null || f.seq < cursor.beforeSeq).slice(0, FAQS_PER_STEP);
  const seen = cursor.seen + page.length;
  const next: FaqsCursor = { beforeSeq: page.length < FAQS_PER_STEP || seen >= all.length ? null : page[page.length - 1]!.seq, seen };
  if (page.length === 0) return { pairs: [], cursor: { beforeSeq: null, seen } };

  const byId = new Map(all.map((f) => [f.id, f]));
  const variants = await store.variantsOf(
    tenantId,
    page.map((f) => f.id),
  );
  const embeddable = page.filter((f) => embedder.canEmbed(f.question));
  const vectors = embeddable.length ? await embedder.embed(embeddable.map((f) => f.question)) : [];
  const pairs: PairRow[] = [];
  for (const faq of page) {
    const linked = new Set((await store.listRelated(tenantId, faq.id, 50)).map((r) => r.id));
    const others = all.filter((o) => o.id !== faq.id && !linked.has(o.id));
    const lexical = others
      .map((o) => ({ o, shared: lexicalSimilarity(faq.terms, o.terms) }))
      .filter((x) => x.shared > 0)
      .sort((x, y) => y.shared - x.shared)
      .slice(0, NEIGHBOURS)
      .map((x) => x.o);
    const strangers = others.filter((o) => lexicalSimilarity(faq.terms, o.terms) === 0);
    const stranger = strangers.length ? strangers[hash32(faq.question) % strangers.length]! : null;
    const own = variants.filter((v) => v.faq_id === faq.id);
    // By the question's text, not the FAQ's id: the same knowledge base folds the same way in every tenant.
    const group = `faq:${faq.question}`;
    const row = (label: Band, b: string, raw: number | null = null): PairRow => ({
      source: "faqs",
      groupKey: group,
      label,
      a: faq.question,
      b,
      raw,
    });

    const i = embeddable.indexOf(faq);
    if (i < 0) {
      // Text the model cannot embed: measured (and dropped) like any other in the measure phase.
      pairs.push(...own.map((v) => row("paraphrase", v.variant_text)), ...lexical.map((o) => row("related", o.question)));
      if (stranger) pairs.push(row("unrelated", stranger.question));
      continue;
    }
    const query = { vector: vectors[i]!, model: embedder.model };
    const nearest = (await store.nearest(tenantId, query, NEIGHBOURS + 1 + linked.size))
      .filter((n) => n.id !== faq.id && !linked.has(n.id) && byId.has(n.id))
      .slice(0, NEIGHBOURS);
    const negativeIds = [...new Set([...nearest.map((n) => n.id), ...lexical.map((o) => o.id)])];
    // A neighbour's variants are how people word that other question: the hardest negatives.
    const taken = new Map<string, number>();
    const theirs = (await store.variantsOf(tenantId, negativeIds)).filter((v) => {
      taken.set(v.faq_id, (taken.get(v.faq_id) ?? 0) + 1);
      return taken.get(v.faq_id)! <= NEIGHBOUR_VARIANTS;
    });
    const cosines = await store.storedCosines(tenantId, query, {
      faqIds: [...negativeIds, ...(stranger ? [stranger.id] : [])],
      variantIds: [...own, ...theirs].map((v) => v.id),
    });
    pairs.push(...own.map((v) => row("paraphrase", v.variant_text, cosines.variants.get(v.id) ?? null)));
    for (const id of negativeIds) pairs.push(row("related", byId.get(id)!.question, cosines.faqs.get(id) ?? null));
    pairs.push(...theirs.map((v) => row("related", v.variant_text, cosines.variants.get(v.id) ?? null)));
    if (stranger && !negativeIds.includes(stranger.id))
      pairs.push(row("unrelated", stranger.question, cosines.faqs.get(stranger.id) ?? null));
  }
  return { pairs, cursor: next };
}

/** People's decisions on staged MERGE items: approved → the same question; rejected → a different one. */
export async function collectReviewPairs(pipeline: PipelineStore, tenantId: string): Promise<PairRow[]> {
  const pairs: PairRow[] = [];
  for (const status of ["approved", "rejected"] as const) {
    let before: number | undefined;
    let read = 0;
    while (read < MAX_REVIEWS) {
      const page = await pipeline.listStaging(tenantId, { status, limit: 200, before });
      read += page.rows.length;
      for (const item of page.rows) {
        if (item.action !== "MERGE" || !item.variantText) continue;
        pairs.push({
          source: "reviews",
          groupKey: `review:${item.faqId ?? item.id}`,
          label: status === "approved" ? "paraphrase" : "related",
          a: item.question,
          b: item.variantText,
          raw: null,
        });
      }
      if (page.nextCursor === null) break;
      before = page.nextCursor;
    }
  }
  return pairs;
}
