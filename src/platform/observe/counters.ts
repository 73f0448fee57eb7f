/**
 * Per-tenant metrics for memory recall (seed 000, "Metrics to track"): counters per day (count +
 * sum, so rates and means can be derived) and latency samples for percentiles. Written after the
 * response (waitUntil); never on the caller's critical path.
 */
export interface MetricEvent {
  name: string;
  /** Added to the counter's sum (e.g. a similarity); the count always goes up by one. */
  value?: number;
}

/** Latency samples are kept this long (the daily cron prunes the rest). */
export const LATENCY_RETENTION_DAYS = 7;
const DAY_MS = 24 * 3600 * 1000;

/** The statements that record the events (and a latency sample), for the caller to batch with its own. */
export function metricStatements(
  db: D1Database,
  tenantId: string,
  now: number,
  events: readonly MetricEvent[],
  latency?: { name: string; ms: number },
) {
  const day = new Date(now).toISOString().slice(0, 10);
  const statements = events.map((e) =>
    db
      .prepare(
        `INSERT INTO metric_counters (tenant_id, day, name, count, sum) VALUES (?, ?, ?, 1, ?)
         ON CONFLICT (tenant_id, day, name) DO UPDATE SET count = count + 1, sum = sum + excluded.sum`,
      )
      .bind(tenantId, day, e.name, e.value ?? 0),
  );
  if (latency) {
    statements.push(
      db.prepare("INSERT INTO latency_samples (tenant_id, name, ms, at) VALUES (?, ?, ?, ?)").bind(tenantId, latency.name, latency.ms, now),
    );
  }
  return statements;
}

export interface RecallMetrics {
  days: number;
  /** Every prompt sent to /v1/context, trivial ones included. */
  prompts: number;
  /** Prompts answered at once as trivial (seed 001): counted in `prompts`, never questions. */
  trivialPrompts: number;
  /** Seed 000: questions / all prompts (trivial ones in the denominator). */
  questionDetectionRate: number | null;
  similarQuestionHitRate: number | null;
  meanSimilarity: number | null;
  contextLatencyMs: { p50: number | null; p95: number | null; samples: number };
}

export async function readRecallMetrics(
  db: D1Database,
  tenantId: string,
  now: number,
  days = LATENCY_RETENTION_DAYS,
): Promise<RecallMetrics> {
  const since = new Date(now - (days - 1) * DAY_MS).toISOString().slice(0, 10);
  const { results } = await db
    .prepare("SELECT name, SUM(count) AS count, SUM(sum) AS sum FROM metric_counters WHERE tenant_id = ? AND day >= ? GROUP BY name")
    .bind(tenantId, since)
    .all<{ name: string; count: number; sum: number }>();
  const c = Object.fromEntries(results.map((r) => [r.name, r]));
  const count = (name: string) => c[name]?.count ?? 0;
  const ratio = (a: number, b: number) => (b === 0 ? null : a / b);
  const { results: samples } = await db
    .prepare("SELECT ms FROM latency_samples WHERE tenant_id = ? AND name = 'context' AND at >= ? ORDER BY ms")
    .bind(tenantId, now - days * DAY_MS)
    .all<{ ms: number }>();
  const pct = (p: number) => (samples.length === 0 ? null : samples[Math.min(samples.length - 1, Math.ceil(p * samples.length) - 1)]!.ms);
  return {
    days,
    prompts: count("prompt"),
    trivialPrompts: count("trivial_prompt"),
    questionDetectionRate: ratio(count("question_detected"), count("prompt")),
    similarQuestionHitRate: ratio(count("similar_hit"), count("similar_lookup")),
    meanSimilarity: ratio(c.similarity?.sum ?? 0, count("similarity")),
    contextLatencyMs: { p50: pct(0.5), p95: pct(0.95), samples: samples.length },
  };
}

export async function pruneLatencySamples(db: D1Database, now: number) {
  const result = await db
    .prepare("DELETE FROM latency_samples WHERE at < ?")
    .bind(now - LATENCY_RETENTION_DAYS * DAY_MS)
    .run();
  return { pruned: result.meta.changes };
}
