/**
 * The record of each helpdesk delivery (its outcome and, when skipped, why) and the conversation
 * parts gathered for providers whose events carry one message each. A delivery key seen before is
 * answered from its record: a redelivery is processed once. Both are kept DELIVERY_RETENTION_MS.
 */
import type { DeliveryOutcome } from "../db/schema/helpdesk";
import type { ThreadPart } from "./types";

export const DELIVERY_RETENTION_MS = 30 * 24 * 60 * 60 * 1000;

export interface DeliveryRow {
  connection_id: string;
  delivery_key: string;
  tenant_id: string;
  received_at: number;
  outcome: DeliveryOutcome;
  reason: string | null;
  external_id: string | null;
  ticket_row_id: string | null;
}

export function toDelivery(row: DeliveryRow) {
  return {
    deliveryKey: row.delivery_key,
    receivedAt: new Date(row.received_at).toISOString(),
    outcome: row.outcome,
    reason: row.reason,
    externalId: row.external_id,
    ticketRowId: row.ticket_row_id,
  };
}

export async function findDelivery(db: D1Database, connectionId: string, deliveryKey: string): Promise<DeliveryRow | null> {
  return db
    .prepare("SELECT * FROM webhook_deliveries WHERE connection_id = ? AND delivery_key = ?")
    .bind(connectionId, deliveryKey)
    .first<DeliveryRow>();
}

export async function recordDelivery(db: D1Database, row: DeliveryRow): Promise<void> {
  await db
    .prepare(
      `INSERT INTO webhook_deliveries (connection_id, delivery_key, tenant_id, received_at, outcome, reason, external_id, ticket_row_id)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (connection_id, delivery_key) DO NOTHING`,
    )
    .bind(row.connection_id, row.delivery_key, row.tenant_id, row.received_at, row.outcome, row.reason, row.external_id, row.ticket_row_id)
    .run();
}

/** Newest first: at most `limit`, after the (received_at, delivery_key) position `after` when given. */
export async function listDeliveries(
  db: D1Database,
  tenantId: string,
  connectionId: string,
  page: { limit: number; after?: readonly [number, string] | undefined },
): Promise<DeliveryRow[]> {
  const { results } = await db
    .prepare(
      `SELECT * FROM webhook_deliveries WHERE tenant_id = ?1 AND connection_id = ?2
         AND (?3 IS NULL OR received_at < ?3 OR (received_at = ?3 AND delivery_key > ?4))
       ORDER BY received_at DESC, delivery_key LIMIT ?5`,
    )
    .bind(tenantId, connectionId, page.after?.[0] ?? null, page.after?.[1] ?? "", page.limit)
    .all<DeliveryRow>();
  return results;
}

/** Remembers one message: the first customer message and the last public agent reply win. */
export async function gatherThreadPart(
  db: D1Database,
  tenantId: string,
  connectionId: string,
  part: ThreadPart,
  now: number,
): Promise<void> {
  await db
    .prepare(
      `INSERT INTO helpdesk_threads (connection_id, external_id, tenant_id, subject, question, answer, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (connection_id, external_id) DO UPDATE SET
         subject = CASE WHEN excluded.subject <> '' THEN excluded.subject ELSE subject END,
         question = COALESCE(question, excluded.question),
         answer = COALESCE(excluded.answer, answer),
         updated_at = excluded.updated_at`,
    )
    .bind(connectionId, part.externalId, tenantId, part.subject ?? "", part.question ?? null, part.answer ?? null, now)
    .run();
}

export async function getThread(db: D1Database, connectionId: string, externalId: string) {
  return db
    .prepare("SELECT subject, question, answer FROM helpdesk_threads WHERE connection_id = ? AND external_id = ?")
    .bind(connectionId, externalId)
    .first<{ subject: string; question: string | null; answer: string | null }>();
}

export async function forgetThread(db: D1Database, connectionId: string, externalId: string): Promise<void> {
  await db.prepare("DELETE FROM helpdesk_threads WHERE connection_id = ? AND external_id = ?").bind(connectionId, externalId).run();
}

/** Cron: forgets delivery records and gathered parts older than DELIVERY_RETENTION_MS. */
export async function pruneDeliveries(db: D1Database, now: number): Promise<{ deliveries: number; threads: number }> {
  const cutoff = now - DELIVERY_RETENTION_MS;
  const [d, t] = await db.batch([
    db.prepare("DELETE FROM webhook_deliveries WHERE received_at < ?").bind(cutoff),
    db.prepare("DELETE FROM helpdesk_threads WHERE updated_at < ?").bind(cutoff),
  ]);
  return { deliveries: d?.meta.changes ?? 0, threads: t?.meta.changes ?? 0 };
}
