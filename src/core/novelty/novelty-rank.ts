/**
 * The show ranking pipeline (seed 004, "Modified Ranking Pipeline"), as one pure function:
 *
 *   1. batch dedupe: exact repeats, and pairs ≥ 0.85 in which the same-question decision
 *      (src/core/decisions) finds no contrast; the higher confidence stays
 *   2. history check against the show's window: block > similarityThreshold vs the last 30 min
 *      (or vs a used question of any age) unless the decision finds a contrast (E500 ≠ E501,
 *      enable ≠ disable …): then penalize (× 0.7) with its reason; penalize ≥
 *      penaltySimilarityThreshold; boost < noveltyBoostThreshold vs every question in the window
 *      (× 1.1). A blocked question stays in the answer's `filtered` list with the decision's reason,
 *      where the producer sees it, so the show blocks at its own line (the seed's, per show) rather
 *      than only where the decision is sure, as dedupe and the ticket pipeline must
 *      (`npm run decisions` and `npm run simulate:show` measure both ways).
 *   3. novelty: 1 − max(similarity × e^(−age/τ)) + exploration bonus (see novelty.ts)
 *   4. cross-model voting: other models proposing a close question raise the score
 *   5. diversity: greedy picks, each scaled down by its similarity to the picks already made
 *   6. top N
 *
 * score = confidence × votes × history factor × (1 − w + w·novelty) × diversity factor.
 * Constants and their reasons are in novelty-config.ts.
 */
import type { Calibration } from "../calibration/calibration";
import type { SameQuestionModel } from "../decisions/same-question";
import type { RepeatModel } from "../ranking/repeat";
import {
  BATCH_DUPLICATE_THRESHOLD,
  DIVERSITY_WEIGHT,
  NOVELTY_BOOST_FACTOR,
  NOVELTY_WEIGHT,
  type NoveltyConfig,
  PENALTY_FACTOR,
  VOTE_AGREEMENT_THRESHOLD,
  VOTE_BONUS_PER_MODEL,
  VOTE_MAX_MODELS,
} from "./novelty-config";
import { type Comparable, decideRepeat, noveltyScore, normalizeQuestion, type Similarity, similarityOf } from "./novelty";
import { historyCheck, historyMessage, type PastQuestion, percent, type SimilarTo } from "./novelty-history";

export interface Candidate extends Comparable {
  model: string;
  /** The generating model's own confidence, 0..1: the base score. */
  confidence: number;
}

export interface RankInput {
  candidates: readonly Candidate[];
  /** The show's active window (any order). */
  history: readonly PastQuestion[];
  now: number;
  config: NoveltyConfig;
  calibration: Calibration | null;
  /** The model's repeat decision (src/core/ranking/repeat.ts); null: thresholds compare the calibrated cosine. */
  repeat?: RepeatModel | null;
  /** The model's same-question thresholds (src/core/decisions); null: the unfitted ones (near-verbatim repeats only). */
  sameQuestion?: SameQuestionModel | null;
  topN: number;
}

export type FilterReason = "duplicate_in_batch" | "similar_to_recent" | "similar_to_used";

export interface FilteredCandidate extends SimilarTo {
  index: number;
  text: string;
  model: string;
  reason: FilterReason;
  message: string;
}

export interface Warning extends SimilarTo {
  kind: "penalized" | "close_to_pick";
  message: string;
}

export interface Pick {
  index: number;
  text: string;
  model: string;
  confidence: number;
  score: number;
  /** Null when the show's memory is disabled. */
  novelty: number | null;
  /** Other models that proposed a close question in this batch. */
  votes: string[];
  boosted: boolean;
  warnings: Warning[];
}

export interface RankOutput {
  picks: Pick[];
  filtered: FilteredCandidate[];
  /** Candidates that passed every filter but did not make the top N. */
  notPicked: { index: number; text: string; score: number }[];
}

interface Scored {
  index: number;
  quality: number;
  novelty: number | null;
  boosted: boolean;
  warnings: Warning[];
}

export function rankCandidates(input: RankInput): RankOutput {
  const { candidates, history, now, config, calibration } = input;
  const n = candidates.length;
  const sim = (a: Comparable, b: Comparable) => similarityOf(a, b, calibration, input.repeat ?? null);
  const decide = (a: Comparable, b: Comparable, s: Similarity) => decideRepeat(a, b, s, input.sameQuestion ?? null);
  const pair: Similarity[][] = candidates.map((a, i) => candidates.map((b, j) => (i === j ? self : sim(a, b))));
  const filtered: FilteredCandidate[] = [];

  // 1. Batch dedupe, best confidence first (ties: input order).
  const byConfidence = [...candidates.keys()].sort((i, j) => candidates[j]!.confidence - candidates[i]!.confidence || i - j);
  const kept: number[] = [];
  for (const i of byConfidence) {
    const text = normalizeQuestion(candidates[i]!.text);
    let dupOf = -1;
    let evidence: string | null = null;
    for (const j of kept) {
      const exact = normalizeQuestion(candidates[j]!.text) === text;
      const s = pair[i]![j]!;
      if (!exact && (s.similarity < BATCH_DUPLICATE_THRESHOLD || (dupOf >= 0 && s.similarity <= pair[i]![dupOf]!.similarity))) continue;
      const decision = exact ? null : decide(candidates[i]!, candidates[j]!, s);
      if (decision && decision.evidence.contrasts.length > 0) continue;
      dupOf = j;
      evidence = decision?.reason ?? "the same text";
      if (exact) break;
    }
    if (dupOf < 0) {
      kept.push(i);
      continue;
    }
    const s = pair[i]![dupOf]!;
    const similar: SimilarTo = {
      mostSimilarQuestion: candidates[dupOf]!.text,
      mostSimilarQuestionId: null,
      ...pick3(s),
      minutesAgo: null,
      evidence,
    };
    filtered.push({
      index: i,
      text: candidates[i]!.text,
      model: candidates[i]!.model,
      reason: "duplicate_in_batch",
      message: `${percent(s.similarity)} similar to "${candidates[dupOf]!.text}" in this batch (kept: higher confidence)`,
      ...similar,
    });
  }

  // 2–3. History check and novelty.
  const survivors: Scored[] = [];
  for (const i of kept.sort((a, b) => a - b)) {
    const candidate = candidates[i]!;
    if (!config.enabled || history.length === 0) {
      survivors.push({
        index: i,
        quality: candidate.confidence,
        novelty: config.enabled ? noveltyScore([], config.decayTimeConstantMinutes) : null,
        boosted: false,
        warnings: [],
      });
      continue;
    }
    const { past, maxAll, near, repeatOf } = historyCheck(candidate, history, now, config, sim, decide);
    const novelty = noveltyScore(past, config.decayTimeConstantMinutes);
    if (repeatOf) {
      const { used, ...similar } = repeatOf;
      filtered.push({
        index: i,
        text: candidate.text,
        model: candidate.model,
        reason: used ? "similar_to_used" : "similar_to_recent",
        message: historyMessage(repeatOf),
        ...similar,
      });
      continue;
    }
    let quality = candidate.confidence;
    const warnings: Warning[] = [];
    if (near && near.similarity >= config.penaltySimilarityThreshold) {
      const { used: _used, ...similar } = near;
      quality *= PENALTY_FACTOR;
      warnings.push({ kind: "penalized", message: historyMessage(near), ...similar });
    }
    const boosted = maxAll < config.noveltyBoostThreshold;
    if (boosted) quality *= NOVELTY_BOOST_FACTOR;
    survivors.push({ index: i, quality, novelty, boosted, warnings });
  }

  // 4. Cross-model voting: every candidate of the batch (filtered ones too) is its model's opinion.
  const votesFor = (i: number): string[] => {
    const models = new Set<string>();
    for (let j = 0; j < n; j++) {
      const model = candidates[j]!.model;
      if (j !== i && model !== candidates[i]!.model && pair[i]![j]!.similarity >= VOTE_AGREEMENT_THRESHOLD) models.add(model);
    }
    return [...models].sort();
  };
  const base = survivors.map((s) => {
    const votes = votesFor(s.index);
    const voteFactor = 1 + VOTE_BONUS_PER_MODEL * Math.min(votes.length, VOTE_MAX_MODELS);
    const noveltyFactor = s.novelty === null ? 1 : 1 - NOVELTY_WEIGHT + NOVELTY_WEIGHT * s.novelty;
    return { ...s, votes, score: s.quality * voteFactor * noveltyFactor };
  });

  // 5–6. Diversity-aware greedy top N.
  const picks: Pick[] = [];
  const remaining = [...base];
  while (picks.length < input.topN && remaining.length > 0) {
    let best = -1;
    let bestScore = -Infinity;
    let bestNear: { pick: Pick; s: Similarity } | null = null;
    remaining.forEach((r, k) => {
      let near: { pick: Pick; s: Similarity } | null = null;
      for (const p of picks) {
        const s = pair[r.index]![p.index]!;
        if (!near || s.similarity > near.s.similarity) near = { pick: p, s };
      }
      const closest = near as { pick: Pick; s: Similarity } | null;
      const adjusted = r.score * (1 - DIVERSITY_WEIGHT * (closest?.s.similarity ?? 0));
      if (adjusted > bestScore || (adjusted === bestScore && r.index < remaining[best]!.index)) {
        best = k;
        bestScore = adjusted;
        bestNear = closest;
      }
    });
    const chosen = remaining.splice(best, 1)[0]!;
    const warnings = [...chosen.warnings];
    const near = bestNear as { pick: Pick; s: Similarity } | null;
    if (near && near.s.similarity >= config.penaltySimilarityThreshold) {
      warnings.push({
        kind: "close_to_pick",
        message: `${percent(near.s.similarity)} similar to pick "${near.pick.text}" of this batch`,
        mostSimilarQuestion: near.pick.text,
        mostSimilarQuestionId: null,
        ...pick3(near.s),
        minutesAgo: null,
        evidence: null,
      });
    }
    const candidate = candidates[chosen.index]!;
    picks.push({
      index: chosen.index,
      text: candidate.text,
      model: candidate.model,
      confidence: candidate.confidence,
      score: bestScore,
      novelty: chosen.novelty,
      votes: chosen.votes,
      boosted: chosen.boosted,
      warnings,
    });
  }
  const notPicked = remaining
    .sort((a, b) => b.score - a.score || a.index - b.index)
    .map((r) => ({ index: r.index, text: candidates[r.index]!.text, score: r.score }));
  filtered.sort((a, b) => a.index - b.index);
  return { picks, filtered, notPicked };
}

const self: Similarity = { similarity: 1, rawCosine: 1, method: "embedding" };

function pick3(s: Similarity) {
  return { similarity: s.similarity, rawCosine: s.rawCosine, method: s.method };
}
