/**
 * The JSON of a ranking, one mapping for the answer of POST …/rank and for a stored ranking read
 * back (GET …/rankings/:id), so both say the same thing in the same shape (scores rounded).
 */
import type { OverrideRecord, RankedFiltered, RankedPick, RankingDetail, StoredRanking } from "../../features/shows/types";
import { round } from "./show-object";

const pickBody = (p: RankedPick) => ({
  id: p.id,
  text: p.text,
  model: p.model,
  confidence: p.confidence,
  score: round(p.score),
  novelty: round(p.novelty),
  votes: p.votes,
  boosted: p.boosted,
  warnings: p.warnings.map((w) => ({ ...w, similarity: round(w.similarity), rawCosine: round(w.rawCosine) })),
});

const filteredBody = (f: RankedFiltered) => ({
  text: f.text,
  model: f.model,
  reason: f.reason,
  message: f.message,
  mostSimilarQuestion: f.mostSimilarQuestion,
  mostSimilarQuestionId: f.mostSimilarQuestionId,
  similarity: round(f.similarity),
  rawCosine: round(f.rawCosine),
  method: f.method,
  minutesAgo: f.minutesAgo,
  askedAt: f.askedAt,
  evidence: f.evidence,
});

export const overrideBody = (o: OverrideRecord) => ({ ...o });

/** The ranking as POST …/rank answers it. */
export function rankBody(r: {
  rankingId: string | null;
  picks: RankedPick[];
  filtered: RankedFiltered[];
  notPicked: { text: string; score: number }[];
  embedding: { model: string; calibrated: boolean };
}) {
  return {
    rankingId: r.rankingId,
    picks: r.picks.map(pickBody),
    filtered: r.filtered.map(filteredBody),
    notPicked: r.notPicked.map((x) => ({ text: x.text, score: round(x.score) })),
    recorded: r.picks.filter((p) => p.id !== null).length,
    embedding: r.embedding,
  };
}

/** A stored ranking read back, with what happened since (picks used, filtered questions used anyway). */
export function rankingDetailBody(r: RankingDetail) {
  const { rankingId: _id, ...body } = rankBody({ ...r, rankingId: r.id });
  return {
    id: r.id,
    rankedAt: r.rankedAt,
    by: r.by,
    candidateCount: r.candidateCount,
    ...body,
    picks: r.picks.map((p) => ({ ...pickBody(p), wasUsed: p.wasUsed })),
    filtered: r.filtered.map((f) => ({ ...filteredBody(f), override: f.override === null ? null : overrideBody(f.override) })),
    asked: r.asked ?? null,
  };
}

/** One line of the rankings list: when, by whom, what was picked. */
export function rankingSummaryBody(r: StoredRanking) {
  return {
    id: r.id,
    rankedAt: r.rankedAt,
    by: r.by,
    candidateCount: r.candidateCount,
    picks: r.picks.map((p) => ({ id: p.id, text: p.text, model: p.model, score: round(p.score), novelty: round(p.novelty) })),
    filteredCount: r.filtered.length,
    notPickedCount: r.notPicked.length,
  };
}
