/** Hit tracking (seed 002 §7.2.3, §7.2.6): which FAQs searches returned, to whom, how well. */
import type { Services } from "../services";
import type { FaqSearchHit } from "./search";

export const DAY_MS = 24 * 3600 * 1000;

/** One hit per returned FAQ (as the seed's retriever records them), in one batch. */
export async function recordHits(
  { db, clock }: Pick<Services, "db" | "clock">,
  tenantId: string,
  sessionId: string,
  query: string,
  hits: readonly FaqSearchHit[],
): Promise<void> {
  if (hits.length === 0) return;
  const now = clock.now();
  await db.batch(
    hits.map((h) =>
      db
        .prepare("INSERT INTO faq_hits (tenant_id, faq_id, variant_id, query_text, score, session_id, hit_at) VALUES (?, ?, ?, ?, ?, ?, ?)")
        .bind(tenantId, h.faq.id, h.matchedVariant?.id ?? null, query, h.similarity ?? 0, sessionId, now),
    ),
  );
}

export interface FaqStats {
  totalHits: number;
  uniqueSessions: number;
  /** Distinct UTC days with at least one hit. */
  daysWithHits: number;
  lastHitAt: string | null;
  /**
   * Mean calibrated similarity of the queries that hit it (seed 002's avg similarity; a query the
   * model could not embed counts 0), 4 significant digits; null without hits.
   */
  avgScore: number | null;
}

/** The aggregates of one FAQ's hits, as both backends' queries return them. */
export interface StatsRow {
  faq_id: string;
  question: string;
  total_hits: number;
  unique_sessions: number;
  days_with_hits: number;
  last_hit_at: number | null;
  avg_score: number | null;
}

const STATS_SELECT = `SELECT f.id AS faq_id, f.question, COUNT(h.id) AS total_hits, COUNT(DISTINCT h.session_id) AS unique_sessions,
  COUNT(DISTINCT h.hit_at / ${DAY_MS}) AS days_with_hits, MAX(h.hit_at) AS last_hit_at, AVG(h.score) AS avg_score
  FROM faqs f LEFT JOIN faq_hits h ON h.tenant_id = f.tenant_id AND h.faq_id = f.id`;

export const toStats = (r: Omit<StatsRow, "faq_id" | "question">): FaqStats => ({
  totalHits: r.total_hits,
  uniqueSessions: r.unique_sessions,
  daysWithHits: r.days_with_hits,
  lastHitAt: r.last_hit_at === null ? null : new Date(r.last_hit_at).toISOString(),
  avgScore: r.avg_score === null ? null : Number(r.avg_score.toPrecision(4)),
});

export const NO_HITS: FaqStats = { totalHits: 0, uniqueSessions: 0, daysWithHits: 0, lastHitAt: null, avgScore: null };

export async function faqStats(db: D1Database, tenantId: string, faqId: string): Promise<FaqStats> {
  const row = await db.prepare(`${STATS_SELECT} WHERE f.tenant_id = ? AND f.id = ? GROUP BY f.id`).bind(tenantId, faqId).first<StatsRow>();
  return row ? toStats(row) : NO_HITS;
}

/** The tenant's live FAQs with their stats, most hit first (the seed's faq_hit_stats view), one page. */
export async function allFaqStats(
  db: D1Database,
  tenantId: string,
  limit: number,
): Promise<({ id: string; question: string } & FaqStats)[]> {
  const { results } = await db
    .prepare(`${STATS_SELECT} WHERE f.tenant_id = ? AND f.deleted_at IS NULL GROUP BY f.id ORDER BY total_hits DESC, f.seq DESC LIMIT ?`)
    .bind(tenantId, limit)
    .all<StatsRow>();
  return results.map((r) => ({ id: r.faq_id, question: r.question, ...toStats(r) }));
}
