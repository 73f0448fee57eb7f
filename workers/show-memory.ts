/**
 * ShowMemory: one Durable Object per (tenant, show), SQLite-backed. The foundation declares the
 * class and its storage; the novelty pipeline (issue "Per-show novelty memory") fills it in.
 */
import { DurableObject } from "cloudflare:workers";

export class ShowMemory extends DurableObject<Env> {
  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    ctx.storage.sql.exec(
      `CREATE TABLE IF NOT EXISTS questions (
         id TEXT PRIMARY KEY, text TEXT NOT NULL, model TEXT, asked_at INTEGER NOT NULL, was_used INTEGER NOT NULL DEFAULT 0
       )`,
    );
  }

  /** How many questions this show remembers. */
  async questionCount(): Promise<number> {
    return this.ctx.storage.sql.exec<{ n: number }>("SELECT COUNT(*) AS n FROM questions").one().n;
  }
}
