/** What the Worker and the ShowMemory Durable Object exchange over RPC (all structured-cloneable). */
import type { Scale } from "../calibration/scale";
import type { NoveltyConfig } from "../ranking/novelty-config";
import type { CheckOutput } from "../ranking/novelty-history";
import type { FilteredCandidate, Pick } from "../ranking/novelty-rank";
import type { Result } from "../result";

/** A text with the vector the Worker computed for it (null: the model cannot embed it, e.g. Chinese on USE-lite). */
export interface EmbeddedText {
  text: string;
  vector: Float32Array | null;
}

/** Who embedded the vectors, and the scale their cosine is read on (the tenant's, in force). */
export type EmbeddingContext = Scale;

export interface EmbeddedCandidate extends EmbeddedText {
  model: string;
  confidence: number;
  topics?: string[] | undefined;
}

export interface RankRequest {
  candidates: EmbeddedCandidate[];
  topN: number;
  record: boolean;
  /** The caller's clock (ms): the Worker passes services.clock.now(), so tests and simulations inject time. */
  now: number;
  embedding: EmbeddingContext;
}

export interface RankResponse {
  picks: (Pick & { id: string | null })[];
  filtered: FilteredCandidate[];
  notPicked: { index: number; text: string; score: number }[];
  summary: ShowSummary;
}

export interface NewQuestion extends EmbeddedText {
  model?: string | undefined;
  confidence?: number | undefined;
  topics?: string[] | undefined;
}

export interface ShowSummary {
  startedAt: number | null;
  lastActivityAt: number | null;
  endedAt: number | null;
  /** Every stored question (active or forgotten) until retention deletes it. */
  questionCount: number;
  usedCount: number;
  /** Mean novelty of the recorded picks; null before the first. */
  averageNovelty: number | null;
}

export interface ShowStatus extends ShowSummary {
  enabled: boolean;
  /** Questions in the active window (≤ maxCacheSize). */
  questionsInMemory: number;
  showDurationMinutes: number;
  config: NoveltyConfig;
}

/** Where a history page ends: the (asked_at, seq) of its last row. */
export type HistoryPosition = [askedAt: number, seq: number];
export interface HistoryPage {
  limit: number;
  after?: HistoryPosition | undefined;
}

export interface HistoryItem {
  id: string;
  text: string;
  model: string | null;
  confidence: number | null;
  askedAt: number;
  minutesAgo: number;
  wasUsed: boolean;
  topicTags: string[];
  novelty: number | null;
  source: "pick" | "added";
  /** When a refresh took it out of the active window. */
  forgottenAt: number | null;
}

export type CheckResponse = CheckOutput;

export type ShowErrorCode = "ENDED" | "NOT_FOUND" | "INVALID_CONFIG";

/** Domain results cross RPC as tagged values, not exceptions (an RPC exception loses its class). */
export type ShowResult<T> = Result<T, ShowError>;

export interface ShowError {
  code: ShowErrorCode;
  message: string;
  details?: string[];
}
