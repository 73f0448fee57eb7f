/**
 * The producer's overrides (table show_overrides, migration 3): "use anyway" on a question the
 * show filtered, recorded with who and when (seed 004's manual override, per question). The
 * question itself goes into show_questions (source 'override', used); this row says why it is there.
 */
import type { OverrideRecord } from "./types";

interface OverrideRow extends Record<string, SqlStorageValue> {
  id: string;
  question_id: string;
  text: string;
  against_id: string;
  against_text: string;
  ranking_id: string | null;
  overridden_by: string;
  overridden_at: number;
}

const toRecord = (r: OverrideRow): OverrideRecord => ({
  id: r.id,
  questionId: r.question_id,
  text: r.text,
  againstQuestionId: r.against_id,
  againstQuestion: r.against_text,
  rankingId: r.ranking_id,
  by: r.overridden_by,
  at: r.overridden_at,
});

export function insertOverride(sql: SqlStorage, o: OverrideRecord): void {
  sql.exec(
    `INSERT INTO show_overrides (id, question_id, text, against_id, against_text, ranking_id, overridden_by, overridden_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    o.id,
    o.questionId,
    o.text,
    o.againstQuestionId,
    o.againstQuestion,
    o.rankingId,
    o.by,
    o.at,
  );
}

/** The overrides made from one ranking (at most one per filtered text: a second "use anyway" finds the first). */
export function overridesOfRanking(sql: SqlStorage, rankingId: string): OverrideRecord[] {
  return sql.exec<OverrideRow>("SELECT * FROM show_overrides WHERE ranking_id = ? ORDER BY seq", rankingId).toArray().map(toRecord);
}

/** Retention: overrides older than the cutoff go with their questions. */
export function pruneOverrides(sql: SqlStorage, cutoff: number): number {
  return sql.exec("DELETE FROM show_overrides WHERE overridden_at < ?", cutoff).rowsWritten;
}
