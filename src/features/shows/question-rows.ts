/**
 * A show's questions as stored in its Durable Object's SQLite (`show_questions`, src/features/shows/migrations.ts):
 * the row, how one is written, and how a row reads as a history item and as a question of the
 * in-memory window (src/features/shows/store.ts keeps the window and decides what to write).
 */
import { lexicalTerms, MS_PER_MINUTE } from "../../core/novelty/novelty";
import type { HistoryItem, HistoryPage, NewQuestion } from "./types";

/** Auto topic tags per question: its first distinct content terms (shown in the history; refresh topic reads the whole text). */
const MAX_AUTO_TAGS = 16;

export interface QuestionRow extends Record<string, SqlStorageValue> {
  seq: number;
  id: string;
  text: string;
  model: string | null;
  confidence: number | null;
  asked_at: number;
  was_used: number;
  topic_tags: string;
  embedding: ArrayBuffer | null;
  embedding_model: string | null;
  novelty: number | null;
  source: string;
  forgotten_at: number | null;
}

/** A question of the active window, as the novelty pipeline reads it. */
export interface WindowQuestion {
  id: string;
  text: string;
  askedAt: number;
  wasUsed: boolean;
  topicTags: string[];
  terms: string[];
  vector: Float32Array | null;
  embeddingModel: string | null;
}

/** The explicit topics (trimmed, lower case), then the first content terms. */
export function topicTags(topics: readonly string[] | undefined, terms: readonly string[]): string[] {
  return [...new Set([...(topics ?? []).map((t) => t.trim().toLowerCase()).filter(Boolean), ...terms.slice(0, MAX_AUTO_TAGS)])];
}

export function insertQuestionRow(
  sql: SqlStorage,
  q: NewQuestion,
  at: {
    id: string;
    now: number;
    novelty: number | null;
    source: HistoryItem["source"];
    embeddingModel: string;
    used: boolean;
    tags: string[];
  },
): void {
  sql.exec(
    `INSERT INTO show_questions (id, text, model, confidence, asked_at, topic_tags, embedding, embedding_model, novelty, source, was_used, used_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    at.id,
    q.text,
    q.model ?? null,
    q.confidence ?? null,
    at.now,
    JSON.stringify(at.tags),
    q.vector ? q.vector.slice().buffer : null,
    q.vector ? at.embeddingModel : null,
    at.novelty,
    at.source,
    at.used ? 1 : 0,
    at.used ? at.now : null,
  );
}

/** The questions not taken out of the window, newest first (limit −1: all). */
export function activeRows(sql: SqlStorage, limit = -1): QuestionRow[] {
  return sql
    .exec<QuestionRow>("SELECT * FROM show_questions WHERE forgotten_at IS NULL ORDER BY asked_at DESC, seq DESC LIMIT ?", limit)
    .toArray();
}

/** Questions asked since `since`, newest first, after the page's position; one more than the page, to tell whether more follow. */
export function historyRows(sql: SqlStorage, since: number, page: HistoryPage): QuestionRow[] {
  const [afterAskedAt, afterSeq] = page.after ?? [null, null];
  return sql
    .exec<QuestionRow>(
      `SELECT * FROM show_questions WHERE asked_at >= ?1 AND (?2 IS NULL OR asked_at < ?2 OR (asked_at = ?2 AND seq < ?3))
       ORDER BY asked_at DESC, seq DESC LIMIT ?4`,
      since,
      afterAskedAt,
      afterSeq,
      page.limit + 1,
    )
    .toArray();
}

export function historyItem(r: QuestionRow, now: number): HistoryItem {
  return {
    id: r.id,
    text: r.text,
    model: r.model,
    confidence: r.confidence,
    askedAt: r.asked_at,
    minutesAgo: Math.max(0, Math.round((now - r.asked_at) / MS_PER_MINUTE)),
    wasUsed: r.was_used === 1,
    topicTags: JSON.parse(r.topic_tags) as string[],
    novelty: r.novelty,
    source: r.source === "pick" || r.source === "override" ? r.source : "added",
    forgottenAt: r.forgotten_at,
  };
}

export function windowQuestion(r: QuestionRow): WindowQuestion {
  return {
    id: r.id,
    text: r.text,
    askedAt: r.asked_at,
    wasUsed: r.was_used === 1,
    topicTags: JSON.parse(r.topic_tags) as string[],
    terms: lexicalTerms(r.text),
    vector: r.embedding ? new Float32Array(r.embedding.slice(0)) : null,
    embeddingModel: r.embedding_model,
  };
}
