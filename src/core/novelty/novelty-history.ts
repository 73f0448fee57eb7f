/**
 * A show's history check (seed 004, step 2 of the ranking pipeline, novelty-rank.ts): how close a
 * text is to the questions of the show's window, which one it repeats (blocked past the block line
 * unless the same-question decision finds a contrast), and the same check alone for
 * `POST /v1/shows/:id/check`.
 */
import type { Calibration } from "../calibration/calibration";
import type { SameQuestionDecision, SameQuestionModel } from "../decisions/same-question";
import { HISTORY_WINDOW_MINUTES, type NoveltyConfig, USED_SIMILARITY_FACTOR } from "./novelty-config";
import { type Comparable, decideRepeat, MS_PER_MINUTE, noveltyScore, type Similarity, similarityOf } from "./novelty";
import type { RepeatModel } from "../ranking/repeat";

export interface PastQuestion extends Comparable {
  id: string;
  askedAt: number;
  wasUsed: boolean;
}

/** A past (or in-batch) question a candidate was found close to. */
export interface SimilarTo {
  mostSimilarQuestion: string;
  mostSimilarQuestionId: string | null;
  similarity: number;
  rawCosine: number | null;
  method: Similarity["method"];
  /** Whole minutes since it was asked; null for another candidate of the same batch. */
  minutesAgo: number | null;
  /** The same-question decision's reason ("differs: e500 ≠ e501"), shown to the producer; null where none was asked. */
  evidence: string | null;
}

type PastMatch = SimilarTo & { used: boolean };

/**
 * A candidate against the show's window: its similarity to every past question (for novelty), the
 * most similar past question of any age (`top`), the nearest of the last 30 minutes or used by the
 * host (`near`), and among those past the block line, the nearest in which the same-question
 * decision finds no contrast (`repeatOf`). A match past the block line carries the decision's reason.
 */
export function historyCheck(
  candidate: Comparable,
  history: readonly PastQuestion[],
  now: number,
  config: NoveltyConfig,
  sim: (a: Comparable, b: Comparable) => Similarity,
  decide: (a: Comparable, b: Comparable, s: Similarity) => SameQuestionDecision,
) {
  let maxAll = 0;
  let top: PastMatch | null = null;
  const inWindow: { q: PastQuestion; s: Similarity; match: PastMatch }[] = [];
  const past = history.map((q) => {
    const s = sim(candidate, q);
    const effective = q.wasUsed ? Math.min(1, s.similarity * USED_SIMILARITY_FACTOR) : s.similarity;
    const ageMinutes = Math.max(0, (now - q.askedAt) / MS_PER_MINUTE);
    maxAll = Math.max(maxAll, effective);
    const match: PastMatch = {
      mostSimilarQuestion: q.text,
      mostSimilarQuestionId: q.id,
      similarity: effective,
      rawCosine: s.rawCosine,
      method: s.method,
      minutesAgo: Math.round(ageMinutes),
      evidence: null,
      used: q.wasUsed,
    };
    if (!top || effective > top.similarity) top = match;
    if (ageMinutes <= HISTORY_WINDOW_MINUTES || q.wasUsed) inWindow.push({ q, s, match });
    return { similarity: effective, ageMinutes };
  });
  inWindow.sort((x, y) => y.match.similarity - x.match.similarity);
  let repeatOf: PastMatch | null = null;
  if (config.enabled) {
    for (const { q, s, match } of inWindow) {
      if (match.similarity <= config.similarityThreshold) break;
      const decision = decide(candidate, q, s);
      match.evidence = decision.reason;
      if (decision.evidence.contrasts.length === 0) {
        repeatOf = match;
        break;
      }
    }
  }
  return { past, maxAll, top: top as PastMatch | null, near: inWindow[0]?.match ?? null, repeatOf };
}

export function historyMessage(m: PastMatch): string {
  const base = `${percent(m.similarity)} similar to "${m.mostSimilarQuestion}" ${m.used ? "(used by the host) " : ""}${m.minutesAgo} min ago`;
  return m.evidence ? `${base} (${m.evidence})` : base;
}

export function percent(x: number): string {
  return `${Math.round(x * 100)}%`;
}

export interface CheckOutput {
  /** True when ranking would block this text (same rule as step 2). */
  isSimilar: boolean;
  /** The blocking question when isSimilar, else the most similar question of the window; null for an empty window. */
  mostSimilarQuestion: string | null;
  mostSimilarQuestionId: string | null;
  similarity: number;
  rawCosine: number | null;
  method: Similarity["method"] | null;
  minutesAgo: number | null;
  /** The same-question decision's reason for that question, when it was past the block line. */
  evidence: string | null;
  /** What ranking would give it as novelty now. */
  novelty: number;
}

/** The history check of one text, without ranking or recording it. */
export function checkQuestion(
  text: Comparable,
  history: readonly PastQuestion[],
  now: number,
  config: NoveltyConfig,
  calibration: Calibration | null,
  repeat: RepeatModel | null = null,
  sameQuestion: SameQuestionModel | null = null,
): CheckOutput {
  const { past, top, repeatOf } = historyCheck(
    text,
    history,
    now,
    config,
    (a, b) => similarityOf(a, b, calibration, repeat),
    (a, b, s) => decideRepeat(a, b, s, sameQuestion),
  );
  const novelty = noveltyScore(past, config.decayTimeConstantMinutes);
  const shown = repeatOf ?? top;
  if (shown) {
    const { used: _used, ...match } = shown;
    return { ...match, isSimilar: repeatOf !== null, novelty };
  }
  return {
    isSimilar: false,
    mostSimilarQuestion: null,
    mostSimilarQuestionId: null,
    similarity: 0,
    rawCosine: null,
    method: null,
    minutesAgo: null,
    evidence: null,
    novelty,
  };
}
