/**
 * The Postgres adapter of the pipeline store (../port.ts), with FAQ_STORE=postgres: the tickets
 * and staging items next to the FAQs their decisions create, through drizzle + Neon's driver
 * (the FAQ store's pool). The same statements as the D1 adapter; a decision and its staging item
 * are one transaction.
 */
import { and, count, desc, eq, getTableColumns, isNotNull, isNull, lt, or, sql } from "drizzle-orm";
import type { PgDatabase } from "../../../platform/db/pg/client";
import { type PgStagingItem, pgStagingItems, type PgTicket, pgTickets } from "../../../platform/db/pg/schema";
import { tagsSchema } from "../../faqs/json-columns";
import { newId } from "../../../core/base/ids";
import type { PipelineStore, StagingRecord, TicketRecord } from "../port";
import { countsByStatus, decisionColumns, newStagingRow, newTicketRow, pageOf } from "../rows";

const t = pgTickets;
const s = pgStagingItems;

/** jsonb reads as unknown: the tags are checked here, where the row leaves storage. */
const toTicket = (row: PgTicket): TicketRecord => ({ ...row, tags: tagsSchema.parse(row.tags) });
const toStaging = <Row extends PgStagingItem>(row: Row): Row & StagingRecord => ({ ...row, tags: tagsSchema.parse(row.tags) });

export function postgresPipelineStore(db: PgDatabase): PipelineStore {
  const stagingView = () =>
    db
      .select({ ...getTableColumns(s), externalTicketId: t.ticketId })
      .from(s)
      .leftJoin(t, eq(t.id, s.ticketRowId));

  return {
    backend: "postgres",

    async insertTicket(tenantId, input, receivedAt, id = newId("tkt")) {
      const inserted = await db
        .insert(t)
        .values(newTicketRow(id, tenantId, input, receivedAt))
        .onConflictDoNothing({ target: [t.tenantId, t.ticketId] })
        .returning({ id: t.id });
      const [row] = await db
        .select()
        .from(t)
        .where(and(eq(t.tenantId, tenantId), eq(t.ticketId, input.ticketId)));
      if (!row) throw new Error("ticket row missing after insert");
      return { row: toTicket(row), created: inserted.length > 0 };
    },

    async deleteReceivedTicket(tenantId, id) {
      await db.delete(t).where(and(eq(t.id, id), eq(t.tenantId, tenantId), eq(t.status, "received"), eq(t.attempts, 0)));
    },

    async getTicket(tenantId, id) {
      const [row] = await db
        .select()
        .from(t)
        .where(and(eq(t.id, id), eq(t.tenantId, tenantId)));
      return row ? toTicket(row) : null;
    },

    async listTickets(tenantId, { status, limit, before }) {
      const rows = await db
        .select()
        .from(t)
        .where(and(eq(t.tenantId, tenantId), status ? eq(t.status, status) : undefined, lt(t.seq, before ?? Number.MAX_SAFE_INTEGER)))
        .orderBy(desc(t.seq))
        .limit(limit + 1);
      return pageOf(rows.map(toTicket), limit);
    },

    async requeueTicket(tenantId, id) {
      const moved = await db
        .update(t)
        .set({ status: "received", attempts: 0, leaseUntil: null })
        .where(and(eq(t.id, id), eq(t.tenantId, tenantId), eq(t.status, "dead_letter")))
        .returning({ id: t.id });
      return moved.length > 0;
    },

    async claimTicket(tenantId, id, now, leaseUntil) {
      const [row] = await db
        .update(t)
        .set({ leaseUntil, attempts: sql`${t.attempts} + 1` })
        .where(and(eq(t.id, id), eq(t.tenantId, tenantId), eq(t.status, "received"), or(isNull(t.leaseUntil), lt(t.leaseUntil, now))))
        .returning();
      return row ? toTicket(row) : null;
    },

    async releaseTicket(tenantId, id) {
      await db
        .update(t)
        .set({ leaseUntil: null })
        .where(and(eq(t.id, id), eq(t.tenantId, tenantId)));
    },

    async storeDecision(ticket, decision, now) {
      await db.transaction(async (tx) => {
        if (decision.staging)
          await tx
            .insert(s)
            .values(newStagingRow(ticket, decision, decision.staging, now))
            .onConflictDoNothing({ target: s.ticketRowId });
        // The staging id comes from the row itself: a staging item an earlier attempt stored is kept.
        await tx
          .update(t)
          .set({ ...decisionColumns(decision, now), stagingId: sql`(SELECT ${s.id} FROM ${s} WHERE ${s.ticketRowId} = ${ticket.id})` })
          .where(and(eq(t.id, ticket.id), eq(t.status, "received")));
      });
    },

    async recordFailure(tenantId, id, reason) {
      await db
        .update(t)
        .set({ lastError: reason.slice(0, 1000) })
        .where(and(eq(t.id, id), eq(t.tenantId, tenantId)));
    },

    async deadLetter(tenantId, id, attempts, reason) {
      await db
        .update(t)
        .set({
          status: "dead_letter",
          lastError: reason.slice(0, 1000),
          attempts: sql`GREATEST(${t.attempts}, ${attempts})`,
          leaseUntil: null,
        })
        .where(and(eq(t.id, id), eq(t.tenantId, tenantId), eq(t.status, "received")));
    },

    async strandedTickets(receivedBefore, now, limit) {
      return db
        .select({ id: t.id, tenantId: t.tenantId })
        .from(t)
        .where(and(eq(t.status, "received"), lt(t.receivedAt, receivedBefore), or(isNull(t.leaseUntil), lt(t.leaseUntil, now))))
        .orderBy(t.seq)
        .limit(limit);
    },

    async listStaging(tenantId, { status, limit, before }) {
      const rows = await stagingView()
        .where(and(eq(s.tenantId, tenantId), eq(s.status, status), lt(s.seq, before ?? Number.MAX_SAFE_INTEGER)))
        .orderBy(desc(s.seq))
        .limit(limit + 1);
      return pageOf(rows.map(toStaging), limit);
    },

    async getStaging(tenantId, id) {
      const [row] = await stagingView().where(and(eq(s.id, id), eq(s.tenantId, tenantId)));
      return row ? toStaging(row) : null;
    },

    async stagingCounts(tenantId) {
      return countsByStatus(await db.select({ status: s.status, n: count() }).from(s).where(eq(s.tenantId, tenantId)).groupBy(s.status));
    },

    async claimStaging(tenantId, id, review) {
      const [row] = await db
        .update(s)
        .set({ status: review.status, reviewedBy: review.by, reviewedAt: review.at, rejectReason: review.rejectReason })
        .where(and(eq(s.id, id), eq(s.tenantId, tenantId), eq(s.status, "pending")))
        .returning();
      return row ? toStaging(row) : null;
    },

    async rewritePendingStaging(tenantId, id, text) {
      const rows = await db
        .update(s)
        .set(text)
        .where(and(eq(s.id, id), eq(s.tenantId, tenantId), eq(s.status, "pending")))
        .returning({ id: s.id });
      return rows.length > 0;
    },

    async reopenStaging(tenantId, id) {
      await db
        .update(s)
        .set({ status: "pending", reviewedBy: null, reviewedAt: null })
        .where(and(eq(s.id, id), eq(s.tenantId, tenantId), isNull(s.resultFaqId)));
    },

    async recordApproval(item, resultFaqId, variantId) {
      await db.transaction(async (tx) => {
        await tx.update(s).set({ resultFaqId }).where(eq(s.id, item.id));
        if (variantId !== null) await tx.update(t).set({ variantId }).where(eq(t.id, item.ticketRowId));
      });
    },

    async counts(tenantId, decidedSince) {
      const day = sql<string>`to_char(to_timestamp(${t.decidedAt} / 1000.0) AT TIME ZONE 'UTC', 'YYYY-MM-DD')`;
      const [decisionsByDay, ticketsByStatus, stagingByActionStatus] = await Promise.all([
        db
          .select({ day, action: sql<string>`${t.action}`, n: count() })
          .from(t)
          .where(and(eq(t.tenantId, tenantId), eq(t.status, "decided"), sql`${t.decidedAt} >= ${decidedSince}`))
          .groupBy(day, t.action)
          .orderBy(day, t.action),
        db.select({ status: t.status, n: count() }).from(t).where(eq(t.tenantId, tenantId)).groupBy(t.status),
        db.select({ action: s.action, status: s.status, n: count() }).from(s).where(eq(s.tenantId, tenantId)).groupBy(s.action, s.status),
      ]);
      return { decisionsByDay, ticketsByStatus, stagingByActionStatus };
    },

    async approvedNewFaqIds(tenantId, limit) {
      const rows = await db
        .select({ id: s.resultFaqId })
        .from(s)
        .where(and(eq(s.tenantId, tenantId), eq(s.action, "NEW"), eq(s.status, "approved"), isNotNull(s.resultFaqId)))
        .orderBy(desc(s.seq))
        .limit(limit);
      return rows.flatMap((r) => (r.id === null ? [] : [r.id]));
    },
  };
}
