/**
 * One show's memory on the Durable Object's SQLite storage, plus the in-memory window of the
 * newest `maxCacheSize` active questions (rebuilt from storage when the object wakes). Every
 * method is synchronous: SQLite calls in a Durable Object do not yield, so one call runs to the
 * end before the next starts, and a rank's reads and writes are one atomic step. Writes commit
 * in a transaction before the RPC answers, so a question is durable the moment rank returns.
 */
import { type NoveltyConfig, configProblems, DEFAULT_NOVELTY_CONFIG } from "../../core/novelty/novelty-config";
import { lexicalTerms, MS_PER_MINUTE } from "../../core/novelty/novelty";
import { checkQuestion, type PastQuestion } from "../../core/novelty/novelty-history";
import { rankCandidates } from "../../core/novelty/novelty-rank";
import type {
  AskedAt,
  CheckResponse,
  EmbeddedText,
  EmbeddingContext,
  HistoryItem,
  HistoryPage,
  HistoryPosition,
  NewQuestion,
  OverrideRecord,
  OverrideRequest,
  RankedPick,
  RankingDetail,
  RankRequest,
  RankResponse,
  ShowResult,
  ShowStatus,
  ShowSummary,
  StoredRanking,
} from "./types";
import { err, ok } from "../../core/base/result";
import { insertOverride, pruneOverrides } from "./overrides";
import { checkOverride, listRankings, pruneRankings, rankingDetail, saveRanking } from "./rankings";
import { onTopic } from "./topic";
import { activeRows, historyItem, historyRows, insertQuestionRow, topicTags, windowQuestion, type WindowQuestion } from "./question-rows";

export class ShowMemoryStore {
  private window: WindowQuestion[] = [];
  private config: NoveltyConfig;

  constructor(
    private readonly sql: SqlStorage,
    private readonly transaction: <T>(fn: () => T) => T,
  ) {
    // The tables come from src/features/shows/migrations.ts, applied by the object before it builds a store.
    this.config = { ...DEFAULT_NOVELTY_CONFIG, ...(this.meta<Partial<NoveltyConfig>>("config") ?? {}) };
    this.rebuildWindow();
  }

  // ---- reads

  getConfig(): NoveltyConfig {
    return { ...this.config };
  }

  /** The active window, oldest first (ids only: for tests and diagnostics). */
  windowIds(): string[] {
    return this.window.map((q) => q.id);
  }

  questionCount(): number {
    return this.sql.exec<{ n: number }>("SELECT COUNT(*) AS n FROM show_questions").one().n;
  }

  summary(): ShowSummary {
    const counts = this.sql
      .exec<{ n: number; used: number; novelty: number | null }>(
        "SELECT COUNT(*) AS n, COALESCE(SUM(was_used), 0) AS used, AVG(CASE WHEN source = 'pick' THEN novelty END) AS novelty FROM show_questions",
      )
      .one();
    return {
      startedAt: this.meta<number>("startedAt"),
      lastActivityAt: this.meta<number>("lastActivityAt"),
      endedAt: this.meta<number>("endedAt"),
      questionCount: counts.n,
      usedCount: counts.used,
      averageNovelty: counts.novelty,
    };
  }

  status(now: number): ShowStatus {
    const summary = this.summary();
    const end = summary.endedAt ?? now;
    return {
      ...summary,
      enabled: this.config.enabled,
      questionsInMemory: this.window.length,
      showDurationMinutes: summary.startedAt === null ? 0 : Math.max(0, Math.round((end - summary.startedAt) / MS_PER_MINUTE)),
      config: this.getConfig(),
    };
  }

  /** One page of the last `minutes`, newest first; `next` is the position after its last row (null: no more). */
  history(minutes: number, now: number, page: HistoryPage): { questions: HistoryItem[]; next: HistoryPosition | null } {
    const rows = historyRows(this.sql, now - minutes * MS_PER_MINUTE, page);
    const last = rows.length > page.limit ? rows[page.limit - 1] : undefined;
    return { questions: rows.slice(0, page.limit).map((r) => historyItem(r, now)), next: last ? [last.asked_at, last.seq] : null };
  }

  check(text: EmbeddedText, now: number, embedding: EmbeddingContext): CheckResponse {
    return checkQuestion(
      { ...text, terms: lexicalTerms(text.text) },
      this.past(embedding.model),
      now,
      this.config,
      embedding.calibration,
      embedding.repeat,
      embedding.decision,
    );
  }

  // ---- writes

  /** Ranks a batch; with `record`, stores the picks (when the memory is on) and the ranking, in one transaction. */
  rank(request: RankRequest, newId: (prefix: string) => string): ShowResult<RankResponse> {
    if (this.ended() && request.record) return ended();
    const ranked = rankCandidates({
      candidates: request.candidates.map((c) => ({ ...c, terms: lexicalTerms(c.text) })),
      history: this.past(request.embedding.model),
      now: request.now,
      config: this.config,
      calibration: request.embedding.calibration,
      repeat: request.embedding.repeat,
      sameQuestion: request.embedding.decision,
      topN: request.topN,
    });
    // The clock time of each similar question, read before the picks join the window.
    const askedAt = this.askedAtLookup();
    const filtered = ranked.filtered.map((f) => ({ ...f, ...askedAt(f.mostSimilarQuestionId) }));
    const ids: (string | null)[] = ranked.picks.map(() => null);
    const picks = (): RankedPick[] =>
      ranked.picks.map((p, k) => ({ ...p, id: ids[k]!, warnings: p.warnings.map((w) => ({ ...w, ...askedAt(w.mostSimilarQuestionId) })) }));
    if (!request.record) return ok({ picks: picks(), filtered, notPicked: ranked.notPicked, summary: this.summary(), rankingId: null });
    // One transaction: the picks (when the memory is on) and the ranking that names them.
    const rankingId = newId("rk");
    const stored = this.transaction(() => {
      if (this.config.enabled && ranked.picks.length > 0) {
        ranked.picks.forEach((pick, k) => {
          const candidate = request.candidates[pick.index]!;
          ids[k] = this.insert(
            { ...candidate, model: candidate.model, confidence: candidate.confidence },
            { id: newId("q"), now: request.now, novelty: pick.novelty, source: "pick", embeddingModel: request.embedding.model },
          );
        });
        this.touch(request.now);
      }
      const ranking: StoredRanking = {
        id: rankingId,
        rankedAt: request.now,
        by: request.by,
        embedding: { model: request.embedding.model, calibrated: request.embedding.calibration !== null },
        candidateCount: request.candidates.length,
        picks: picks(),
        filtered,
        notPicked: ranked.notPicked,
        asked: { topN: request.topN, candidates: request.candidates.map(({ text, model, confidence }) => ({ text, model, confidence })) },
      };
      saveRanking(this.sql, ranking);
      return ranking;
    });
    return ok({ picks: stored.picks, filtered, notPicked: ranked.notPicked, summary: this.summary(), rankingId });
  }

  /** The show's newest rankings, newest first. */
  rankings(limit: number): StoredRanking[] {
    return listRankings(this.sql, limit);
  }

  /** One stored ranking with what happened since: picks used, filtered questions used anyway. */
  ranking(id: string): ShowResult<RankingDetail> {
    const detail = rankingDetail(this.sql, id);
    return detail ? ok(detail) : err({ code: "NOT_FOUND", message: "No such ranking in this show (a show keeps its newest 100)" });
  }

  /**
   * "Use anyway" (seed 004's manual override) on a question the show filtered: it joins the memory
   * marked used (the host asks it now), and the override says who and when. Against a ranking, a
   * second call for the same text answers the first override (created: false), so a retried form
   * post records nothing twice.
   */
  override(
    request: OverrideRequest,
    newId: (prefix: string) => string,
  ): ShowResult<{ override: OverrideRecord; created: boolean; summary: ShowSummary }> {
    if (this.ended()) return ended();
    const checked = checkOverride(this.sql, request);
    if (!checked.ok) return checked;
    const { against, earlier } = checked.value;
    if (earlier) return ok({ override: earlier, created: false, summary: this.summary() });
    const override = this.transaction(() => {
      const questionId = this.insert(
        { text: request.text, vector: request.vector, model: request.model ?? undefined },
        { id: newId("q"), now: request.now, novelty: null, source: "override", embeddingModel: request.embeddingModel, used: true },
      );
      const record: OverrideRecord = {
        id: newId("ov"),
        questionId,
        text: request.text,
        againstQuestionId: against.id,
        againstQuestion: against.text,
        rankingId: request.rankingId,
        by: request.by,
        at: request.now,
      };
      insertOverride(this.sql, record);
      this.touch(request.now);
      return record;
    });
    return ok({ override, created: true, summary: this.summary() });
  }

  addQuestions(
    questions: NewQuestion[],
    now: number,
    embeddingModel: string,
    newId: () => string,
  ): ShowResult<{ ids: string[]; summary: ShowSummary }> {
    if (this.ended()) return ended();
    const ids = this.transaction(() => {
      const out = questions.map((q) => this.insert(q, { id: newId(), now, novelty: null, source: "added", embeddingModel }));
      this.touch(now);
      return out;
    });
    return ok({ ids, summary: this.summary() });
  }

  markUsed(id: string, now: number): ShowResult<{ id: string; summary: ShowSummary }> {
    const changed = this.sql.exec(
      "UPDATE show_questions SET was_used = 1, used_at = COALESCE(used_at, ?) WHERE id = ?",
      now,
      id,
    ).rowsWritten;
    if (changed === 0) return err({ code: "NOT_FOUND", message: "No such question in this show" });
    const inWindow = this.window.find((q) => q.id === id);
    if (inWindow) inWindow.wasUsed = true;
    return ok({ id, summary: this.summary() });
  }

  /**
   * Takes questions out of the active window (the host wants to revisit a topic): by id, or every
   * active question on `topic` (src/features/shows/topic.ts: its text and explicit topics hold every word
   * of the topic, in any form). They stay in the stored history (with forgottenAt) until retention.
   */
  refresh(
    args: { questionIds?: string[] | undefined; topic?: string | undefined },
    now: number,
  ): ShowResult<{ forgotten: { id: string; text: string }[] }> {
    if (!this.exists()) return neverExisted();
    const wanted = args.questionIds
      ? new Set(args.questionIds)
      : new Set(
          activeRows(this.sql)
            .filter((r) => onTopic({ text: r.text, topics: JSON.parse(r.topic_tags) as string[] }, args.topic ?? ""))
            .map((r) => r.id),
        );
    const forgotten = this.transaction(() => {
      const out: { id: string; text: string }[] = [];
      for (const id of wanted) {
        const row = this.sql
          .exec<{ id: string; text: string }>(
            "UPDATE show_questions SET forgotten_at = ? WHERE id = ? AND forgotten_at IS NULL RETURNING id, text",
            now,
            id,
          )
          .toArray()[0];
        if (row) out.push({ id: row.id, text: row.text });
      }
      return out;
    });
    this.rebuildWindow();
    return ok({ forgotten });
  }

  updateConfig(patch: Partial<NoveltyConfig>): ShowResult<NoveltyConfig> {
    const next: NoveltyConfig = { ...this.config, ...patch };
    const problems = configProblems(next);
    if (problems.length > 0) return err({ code: "INVALID_CONFIG", message: problems.join("; "), details: problems });
    this.setMeta("config", next);
    this.config = next;
    this.rebuildWindow();
    return ok(this.getConfig());
  }

  /** Ends the show for good (writes are refused after). A show that never existed is not created ended. */
  end(now: number): ShowResult<ShowSummary> {
    if (!this.exists()) return neverExisted();
    if (!this.ended()) {
      this.setMeta("endedAt", now);
      this.window = [];
    }
    return { ok: true, value: this.summary() };
  }

  /** Deletes questions older than retentionDays; returns how many went. */
  pruneExpired(now: number): number {
    const cutoff = now - this.config.retentionDays * 24 * 60 * MS_PER_MINUTE;
    const deleted = this.sql.exec("DELETE FROM show_questions WHERE asked_at < ?", cutoff).rowsWritten;
    pruneRankings(this.sql, cutoff);
    pruneOverrides(this.sql, cutoff);
    if (deleted > 0) this.rebuildWindow();
    return deleted;
  }

  // ---- internals

  /** A show exists once it was started (a question recorded), configured or ended. */
  private exists(): boolean {
    return this.meta("startedAt") !== null || this.meta("config") !== null || this.ended() || this.questionCount() > 0;
  }

  private ended(): boolean {
    return this.meta<number>("endedAt") !== null;
  }

  private insert(
    q: NewQuestion,
    at: {
      id: string;
      now: number;
      novelty: number | null;
      source: HistoryItem["source"];
      embeddingModel: string;
      /** Asked by the host already (an override). */
      used?: boolean;
    },
  ): string {
    const used = at.used === true;
    const terms = lexicalTerms(q.text);
    const tags = topicTags(q.topics, terms);
    insertQuestionRow(this.sql, q, { ...at, used, tags });
    if (!this.ended()) {
      this.window.push({
        id: at.id,
        text: q.text,
        askedAt: at.now,
        wasUsed: used,
        topicTags: tags,
        terms,
        vector: q.vector ? Float32Array.from(q.vector) : null,
        embeddingModel: q.vector ? at.embeddingModel : null,
      });
      this.window.sort((a, b) => a.askedAt - b.askedAt);
      if (this.window.length > this.config.maxCacheSize) this.window.splice(0, this.window.length - this.config.maxCacheSize);
    }
    return at.id;
  }

  private touch(now: number): void {
    if (this.meta<number>("startedAt") === null) this.setMeta("startedAt", now);
    this.setMeta("lastActivityAt", Math.max(now, this.meta<number>("lastActivityAt") ?? now));
  }

  private rebuildWindow(): void {
    if (this.ended()) {
      this.window = [];
      return;
    }
    this.window = activeRows(this.sql, this.config.maxCacheSize).reverse().map(windowQuestion);
  }

  /** The window as the pipeline sees it: a vector of another model than the active one is not comparable, so it is dropped (lexical). */
  private past(model: string): PastQuestion[] {
    return this.window.map((q) => ({
      id: q.id,
      text: q.text,
      askedAt: q.askedAt,
      wasUsed: q.wasUsed,
      terms: q.terms,
      vector: q.embeddingModel === model ? q.vector : null,
    }));
  }

  /** When a question of the window was asked, by id (null: not a question of the show, e.g. a batch neighbour). */
  private askedAtLookup(): (id: string | null) => AskedAt {
    const byId = new Map(this.window.map((q) => [q.id, q.askedAt]));
    return (id) => ({ askedAt: id === null ? null : (byId.get(id) ?? null) });
  }

  private meta<T>(key: string): T | null {
    const row = this.sql.exec<{ value: string }>("SELECT value FROM show_meta WHERE key = ?", key).toArray()[0];
    return row ? (JSON.parse(row.value) as T) : null;
  }

  private setMeta(key: string, value: unknown): void {
    this.sql.exec(
      "INSERT INTO show_meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
      key,
      JSON.stringify(value),
    );
  }
}

function neverExisted<T>(): ShowResult<T> {
  return err({ code: "NOT_FOUND", message: "No such show: nothing was ever recorded or configured under this show id" });
}

function ended<T>(): ShowResult<T> {
  return err({ code: "ENDED", message: "This show has ended; start a new show id" });
}
