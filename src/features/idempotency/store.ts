/**
 * The idempotency-key records in D1 (schema: src/platform/db/schema/idempotency.ts). A key is reserved by
 * one INSERT against the (tenant, key) primary key, so of concurrent first requests exactly one
 * runs the handler; the others find its reservation and wait for, or are told about, its answer.
 */
import type { IdempotencyState } from "../../platform/db/schema/idempotency";

/** How long a finished answer is replayed. */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
/** A reservation not finished within this time was abandoned (the request died); a retry may take it over. */
export const RESERVATION_LEASE_MS = 60 * 1000;
/** Expired keys deleted per cron run (bounded, like every cron job). */
export const PRUNE_BATCH = 5000;

export interface IdempotencyRecord {
  request_hash: string;
  state: IdempotencyState;
  status: number | null;
  content_type: string | null;
  body: string | null;
  created_at: number;
}

export interface StoredAnswer {
  status: number;
  contentType: string | null;
  body: string;
}

/**
 * Reserves `key` for this request. Takes over an expired key or an abandoned reservation. Returns
 * the reservation's stamp (its created_at, which later updates check so a request never finishes
 * another's reservation), or null when someone else holds the key.
 */
export async function reserveKey(db: D1Database, tenantId: string, key: string, requestHash: string, now: number): Promise<number | null> {
  const result = await db
    .prepare(
      `INSERT INTO idempotency_keys (tenant_id, idempotency_key, request_hash, state, locked_until, created_at, expires_at)
       VALUES (?1, ?2, ?3, 'pending', ?4, ?5, ?6)
       ON CONFLICT (tenant_id, idempotency_key) DO UPDATE SET
         request_hash = excluded.request_hash, state = 'pending', locked_until = excluded.locked_until,
         status = NULL, content_type = NULL, body = NULL, created_at = excluded.created_at, expires_at = excluded.expires_at
       WHERE idempotency_keys.expires_at <= ?5 OR (idempotency_keys.state = 'pending' AND idempotency_keys.locked_until <= ?5)`,
    )
    .bind(tenantId, key, requestHash, now + RESERVATION_LEASE_MS, now, now + IDEMPOTENCY_TTL_MS)
    .run();
  return result.meta.changes > 0 ? now : null;
}

/** The live record of a key (null: none, or expired). */
export async function findKey(db: D1Database, tenantId: string, key: string, now: number): Promise<IdempotencyRecord | null> {
  return db
    .prepare(
      "SELECT request_hash, state, status, content_type, body, created_at FROM idempotency_keys WHERE tenant_id = ? AND idempotency_key = ? AND expires_at > ?",
    )
    .bind(tenantId, key, now)
    .first<IdempotencyRecord>();
}

/** Stores the answer of the reservation made at `stamp`; it is replayed from now on. */
export async function completeKey(db: D1Database, tenantId: string, key: string, stamp: number, answer: StoredAnswer): Promise<void> {
  await db
    .prepare(
      "UPDATE idempotency_keys SET state = 'done', status = ?, content_type = ?, body = ? WHERE tenant_id = ? AND idempotency_key = ? AND state = 'pending' AND created_at = ?",
    )
    .bind(answer.status, answer.contentType, answer.body, tenantId, key, stamp)
    .run();
}

/** Drops the reservation made at `stamp` (the handler failed): a retry with the key runs again. */
export async function releaseKey(db: D1Database, tenantId: string, key: string, stamp: number): Promise<void> {
  await db
    .prepare("DELETE FROM idempotency_keys WHERE tenant_id = ? AND idempotency_key = ? AND state = 'pending' AND created_at = ?")
    .bind(tenantId, key, stamp)
    .run();
}

/** Cron: deletes up to PRUNE_BATCH keys past their 24 h. */
export async function pruneExpiredKeys(db: D1Database, now: number): Promise<{ deleted: number }> {
  const result = await db
    .prepare("DELETE FROM idempotency_keys WHERE rowid IN (SELECT rowid FROM idempotency_keys WHERE expires_at <= ? LIMIT ?)")
    .bind(now, PRUNE_BATCH)
    .run();
  return { deleted: result.meta.changes };
}
