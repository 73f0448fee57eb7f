/**
 * The record of each helpdesk delivery (its outcome and, when skipped, why) and the conversation
 * parts gathered for providers whose events carry one message each. A delivery key seen before is
 * answered from its record: a redelivery is processed once. Both are kept DELIVERY_RETENTION_MS.
 */
import { and, desc, eq, gt, lt, or, sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import { helpdeskThreads, webhookDeliveries } from "../../platform/db/schema/helpdesk";
import type { ThreadPart } from "./types";

export const DELIVERY_RETENTION_MS = 30 * 24 * 60 * 60 * 1000;

export type DeliveryRow = typeof webhookDeliveries.$inferSelect;

const d = webhookDeliveries;
const th = helpdeskThreads;

export function toDelivery(row: DeliveryRow) {
  return {
    deliveryKey: row.deliveryKey,
    receivedAt: new Date(row.receivedAt).toISOString(),
    outcome: row.outcome,
    reason: row.reason,
    externalId: row.externalId,
    ticketRowId: row.ticketRowId,
  };
}

export async function findDelivery(db: D1Database, connectionId: string, deliveryKey: string): Promise<DeliveryRow | null> {
  const [row] = await drizzle(db)
    .select()
    .from(d)
    .where(and(eq(d.connectionId, connectionId), eq(d.deliveryKey, deliveryKey)));
  return row ?? null;
}

export async function recordDelivery(db: D1Database, row: DeliveryRow): Promise<void> {
  await drizzle(db)
    .insert(d)
    .values(row)
    .onConflictDoNothing({ target: [d.connectionId, d.deliveryKey] });
}

/** Newest first: at most `limit`, after the (received_at, delivery_key) position `after` when given. */
export async function listDeliveries(
  db: D1Database,
  tenantId: string,
  connectionId: string,
  page: { limit: number; after?: readonly [number, string] | undefined },
): Promise<DeliveryRow[]> {
  const after = page.after;
  return drizzle(db)
    .select()
    .from(d)
    .where(
      and(
        eq(d.tenantId, tenantId),
        eq(d.connectionId, connectionId),
        after ? or(lt(d.receivedAt, after[0]), and(eq(d.receivedAt, after[0]), gt(d.deliveryKey, after[1]))) : undefined,
      ),
    )
    .orderBy(desc(d.receivedAt), d.deliveryKey)
    .limit(page.limit);
}

/** Remembers one message: the first customer message and the last public agent reply win. */
export async function gatherThreadPart(
  db: D1Database,
  tenantId: string,
  connectionId: string,
  part: ThreadPart,
  now: number,
): Promise<void> {
  await drizzle(db)
    .insert(th)
    .values({
      connectionId,
      externalId: part.externalId,
      tenantId,
      subject: part.subject ?? "",
      question: part.question ?? null,
      answer: part.answer ?? null,
      updatedAt: now,
    })
    .onConflictDoUpdate({
      target: [th.connectionId, th.externalId],
      set: {
        subject: sql`CASE WHEN excluded.subject <> '' THEN excluded.subject ELSE ${th.subject} END`,
        question: sql`COALESCE(${th.question}, excluded.question)`,
        answer: sql`COALESCE(excluded.answer, ${th.answer})`,
        updatedAt: sql`excluded.updated_at`,
      },
    });
}

export async function getThread(db: D1Database, connectionId: string, externalId: string) {
  const [row] = await drizzle(db)
    .select({ subject: th.subject, question: th.question, answer: th.answer })
    .from(th)
    .where(and(eq(th.connectionId, connectionId), eq(th.externalId, externalId)));
  return row ?? null;
}

export async function forgetThread(db: D1Database, connectionId: string, externalId: string): Promise<void> {
  await drizzle(db)
    .delete(th)
    .where(and(eq(th.connectionId, connectionId), eq(th.externalId, externalId)));
}

/** Cron: forgets delivery records and gathered parts older than DELIVERY_RETENTION_MS. */
export async function pruneDeliveries(db: D1Database, now: number): Promise<{ deliveries: number; threads: number }> {
  const cutoff = now - DELIVERY_RETENTION_MS;
  const orm = drizzle(db);
  const [deliveries, threads] = await orm.batch([
    orm.delete(d).where(lt(d.receivedAt, cutoff)).returning({ key: d.deliveryKey }),
    orm.delete(th).where(lt(th.updatedAt, cutoff)).returning({ key: th.externalId }),
  ]);
  return { deliveries: deliveries.length, threads: threads.length };
}
