/**
 * The rankings a show keeps (table show_rankings, migration 3): what each recorded `rank` answered,
 * so a console can show a ranking again at its own URL (a reload does not rank again and find the
 * picks "100% similar, asked just now") and list what the producer's AI ranked through the API.
 * Each row holds the answer as JSON: it is only ever read whole.
 */
import { err, ok } from "../../core/base/result";
import { overridesOfRanking } from "./overrides";
import type { OverrideRecord, OverrideRequest, RankingDetail, ShowResult, StoredRanking } from "./types";

/** A show keeps its newest rankings only: a producer looks back minutes, not a whole season. */
export const MAX_STORED_RANKINGS = 100;

interface RankingRow extends Record<string, SqlStorageValue> {
  body: string;
}

/** Stores a ranking and drops the oldest beyond MAX_STORED_RANKINGS (run inside the rank's transaction). */
export function saveRanking(sql: SqlStorage, ranking: StoredRanking): void {
  sql.exec(
    "INSERT INTO show_rankings (id, ranked_at, ranked_by, body) VALUES (?, ?, ?, ?)",
    ranking.id,
    ranking.rankedAt,
    ranking.by,
    JSON.stringify(ranking),
  );
  sql.exec(
    "DELETE FROM show_rankings WHERE seq NOT IN (SELECT seq FROM show_rankings ORDER BY ranked_at DESC, seq DESC LIMIT ?)",
    MAX_STORED_RANKINGS,
  );
}

/** The newest `limit` rankings, newest first. */
export function listRankings(sql: SqlStorage, limit: number): StoredRanking[] {
  return sql
    .exec<RankingRow>("SELECT body FROM show_rankings ORDER BY ranked_at DESC, seq DESC LIMIT ?", limit)
    .toArray()
    .map((r) => JSON.parse(r.body) as StoredRanking);
}

export function findRanking(sql: SqlStorage, id: string): StoredRanking | null {
  const row = sql.exec<RankingRow>("SELECT body FROM show_rankings WHERE id = ?", id).toArray()[0];
  return row ? (JSON.parse(row.body) as StoredRanking) : null;
}

/** Retention: rankings older than the cutoff go with the questions they ranked. */
export function pruneRankings(sql: SqlStorage, cutoff: number): number {
  return sql.exec("DELETE FROM show_rankings WHERE ranked_at < ?", cutoff).rowsWritten;
}

/** A stored ranking with what happened since: whether each pick was used, the override of each filtered question. */
export function rankingDetail(sql: SqlStorage, id: string): RankingDetail | null {
  const stored = findRanking(sql, id);
  if (!stored) return null;
  const pickIds = stored.picks.map((p) => p.id).filter((x): x is string => x !== null);
  const used = new Set(
    pickIds.length === 0
      ? []
      : sql
          .exec<{ id: string }>(
            `SELECT id FROM show_questions WHERE was_used = 1 AND id IN (${pickIds.map(() => "?").join(", ")})`,
            ...pickIds,
          )
          .toArray()
          .map((r) => r.id),
  );
  const overrides = overridesOfRanking(sql, id);
  return {
    ...stored,
    picks: stored.picks.map((p) => ({ ...p, wasUsed: p.id !== null && used.has(p.id) })),
    filtered: stored.filtered.map((f) => ({ ...f, override: overrides.find((o) => o.text === f.text) ?? null })),
  };
}

/**
 * Whether "use anyway" may record: the question it was filtered against is the show's, and with a
 * ranking, that ranking filtered this text against it. `earlier`: the override already made from
 * that ranking for this text (a retried form post records nothing twice).
 */
export function checkOverride(
  sql: SqlStorage,
  request: Pick<OverrideRequest, "text" | "againstQuestionId" | "rankingId">,
): ShowResult<{ against: { id: string; text: string }; earlier: OverrideRecord | null }> {
  const against = sql
    .exec<{ id: string; text: string }>("SELECT id, text FROM show_questions WHERE id = ?", request.againstQuestionId)
    .toArray()[0];
  if (!against) return err({ code: "NOT_FOUND", message: "No such question in this show: againstQuestionId" });
  if (request.rankingId === null) return ok({ against, earlier: null });
  const ranking = findRanking(sql, request.rankingId);
  if (!ranking) return err({ code: "NOT_FOUND", message: "No such ranking in this show: rankingId" });
  if (!ranking.filtered.some((f) => f.text === request.text && f.mostSimilarQuestionId === against.id))
    return err({
      code: "INVALID",
      message: "That ranking did not filter this text against that question",
      details: ["text and againstQuestionId must be one filtered candidate of the ranking"],
    });
  const earlier = overridesOfRanking(sql, request.rankingId).find((o) => o.text === request.text) ?? null;
  return ok({ against, earlier });
}
