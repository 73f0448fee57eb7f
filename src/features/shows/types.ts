/** What the Worker and the ShowMemory Durable Object exchange over RPC (all structured-cloneable). */
import type { Scale } from "../../core/scale/scale";
import type { NoveltyConfig } from "../../core/novelty/novelty-config";
import type { CheckOutput } from "../../core/novelty/novelty-history";
import type { FilteredCandidate, Pick, Warning } from "../../core/novelty/novelty-rank";
import type { Result } from "../../core/base/result";

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
  /** Who ranked (the key's name), kept with the stored ranking. */
  by: string;
}

/** When the most similar question was asked (ms; null for another candidate of the same batch): screens show the clock time. */
export interface AskedAt {
  askedAt: number | null;
}
export type RankedPick = Omit<Pick, "warnings"> & { id: string | null; warnings: (Warning & AskedAt)[] };
export type RankedFiltered = FilteredCandidate & AskedAt;

export interface RankResponse {
  picks: RankedPick[];
  filtered: RankedFiltered[];
  notPicked: { index: number; text: string; score: number }[];
  summary: ShowSummary;
  /** The stored ranking (GET …/rankings/:id); null when nothing was recorded (record: false). */
  rankingId: string | null;
}

/** A ranking as the show keeps it: what rank answered, when and for whom. */
export interface StoredRanking {
  id: string;
  rankedAt: number;
  by: string;
  embedding: { model: string; calibrated: boolean };
  candidateCount: number;
  picks: RankedPick[];
  filtered: RankedFiltered[];
  notPicked: { index: number; text: string; score: number }[];
  /** What was asked, so a console re-ranks from it (absent from rankings stored before it was kept). */
  asked?: RankAsked;
}

/** A ranking's request as sent: top N and the candidates in order. */
export interface RankAsked {
  topN: number;
  candidates: { text: string; model: string; confidence: number }[];
}

/** A stored ranking read back: whether each pick was used since, and the override of each filtered one. */
export interface RankingDetail extends Omit<StoredRanking, "picks" | "filtered"> {
  picks: (RankedPick & { wasUsed: boolean })[];
  filtered: (RankedFiltered & { override: OverrideRecord | null })[];
}

/** A producer's "use anyway" on a filtered question (seed 004's manual override). */
export interface OverrideRecord {
  id: string;
  /** The question it recorded in the show, marked used. */
  questionId: string;
  text: string;
  /** The past question it was filtered against. */
  againstQuestionId: string;
  againstQuestion: string;
  rankingId: string | null;
  by: string;
  at: number;
}

export interface OverrideRequest extends EmbeddedText {
  model: string | null;
  againstQuestionId: string;
  rankingId: string | null;
  by: string;
  now: number;
  embeddingModel: string;
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
  /** override: a filtered question the producer used anyway. */
  source: "pick" | "added" | "override";
  /** When a refresh took it out of the active window. */
  forgottenAt: number | null;
}

export type CheckResponse = CheckOutput;

export type ShowErrorCode = "ENDED" | "NOT_FOUND" | "INVALID_CONFIG" | "INVALID";

/** Domain results cross RPC as tagged values, not exceptions (an RPC exception loses its class). */
export type ShowResult<T> = Result<T, ShowError>;

export interface ShowError {
  code: ShowErrorCode;
  message: string;
  details?: string[];
}
