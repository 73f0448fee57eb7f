/**
 * ShowMemory: one Durable Object per (tenant, show), SQLite-backed, reached through RPC methods.
 * It only orchestrates: storage and the window live in src/features/shows/store.ts, the ranking in
 * src/core/novelty/novelty-rank.ts. Vectors arrive from the Worker (one batch embedding call per
 * request), and so does "now" (the Worker's injected clock), so the object never calls a model
 * and a test can replay a 3-hour show in seconds. Only the retention alarm reads the real time.
 */
import { DurableObject } from "cloudflare:workers";
import { newId } from "../src/core/base/ids";
import { createLogger, type Logger } from "../src/platform/observe/log";
import type { NoveltyConfig } from "../src/core/novelty/novelty-config";
import { migrateShowStorage } from "../src/features/shows/migrations";
import { ShowMemoryStore } from "../src/features/shows/store";
import type { EmbeddedText, EmbeddingContext, HistoryPage, NewQuestion, OverrideRequest, RankRequest } from "../src/features/shows/types";

/** How often the retention alarm runs while the show holds questions. */
export const RETENTION_ALARM_INTERVAL_MS = 24 * 3600 * 1000;

export class ShowMemory extends DurableObject<Env> {
  private store!: ShowMemoryStore;
  private readonly log: Logger;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.log = createLogger({ job: "durable_object", object: "ShowMemory", objectId: ctx.id.toString() });
    // Before any request reaches the object: bring its storage to the current schema, then build the
    // window. Not awaited (a constructor cannot be); the runtime holds every request until it settles
    // and resets the object if it throws, so nothing is lost by the void.
    void ctx.blockConcurrencyWhile(async () => {
      const transaction = <T>(fn: () => T): T => ctx.storage.transactionSync(fn);
      const applied = migrateShowStorage(ctx.storage.sql, transaction);
      if (applied.length > 0) this.log.info("show_storage_migrated", { applied, version: applied.at(-1) });
      this.store = new ShowMemoryStore(ctx.storage.sql, transaction);
    });
  }

  async rank(request: RankRequest) {
    const result = this.store.rank(request, newId);
    if (result.ok && request.record) await this.ensureAlarm();
    return result;
  }

  rankings(limit: number) {
    return this.store.rankings(limit);
  }

  ranking(id: string) {
    return this.store.ranking(id);
  }

  async override(request: OverrideRequest) {
    const result = this.store.override(request, newId);
    if (result.ok) await this.ensureAlarm();
    return result;
  }

  check(text: EmbeddedText, now: number, embedding: EmbeddingContext) {
    return this.store.check(text, now, embedding);
  }

  async addQuestions(questions: NewQuestion[], now: number, embeddingModel: string) {
    const result = this.store.addQuestions(questions, now, embeddingModel, () => newId("q"));
    if (result.ok) await this.ensureAlarm();
    return result;
  }

  markUsed(id: string, now: number) {
    return this.store.markUsed(id, now);
  }

  refresh(args: { questionIds?: string[] | undefined; topic?: string | undefined }, now: number) {
    return this.store.refresh(args, now);
  }

  history(minutes: number, now: number, page: HistoryPage) {
    return this.store.history(minutes, now, page);
  }

  status(now: number) {
    return this.store.status(now);
  }

  updateConfig(patch: Partial<NoveltyConfig>) {
    return this.store.updateConfig(patch);
  }

  end(now: number) {
    return this.store.end(now);
  }

  override async alarm(): Promise<void> {
    const started = performance.now();
    const deleted = this.store.pruneExpired(Date.now());
    this.log.info("show_retention", { deleted, durationMs: Math.round((performance.now() - started) * 10) / 10 });
    if (this.store.questionCount() > 0) await this.ctx.storage.setAlarm(Date.now() + RETENTION_ALARM_INTERVAL_MS);
  }

  private async ensureAlarm(): Promise<void> {
    if ((await this.ctx.storage.getAlarm()) === null) await this.ctx.storage.setAlarm(Date.now() + RETENTION_ALARM_INTERVAL_MS);
  }
}
