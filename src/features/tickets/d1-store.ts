/**
 * The D1 adapter of the pipeline store (port.ts): drizzle's query builder over the D1 schema
 * (src/platform/db/schema/tickets.ts). A decision and its staging item are one D1 batch (atomic).
 */
import { and, count, desc, eq, getTableColumns, isNotNull, isNull, lt, or, sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import { stagingItems, tickets } from "../../platform/db/schema";
import { tagsSchema } from "../faqs/json-columns";
import { newId } from "../../core/base/ids";
import type { PipelineStore, StagingRecord, TicketRecord } from "./port";
import { countsByStatus, decisionColumns, newStagingRow, newTicketRow, pageOf } from "./rows";

const t = tickets;
const s = stagingItems;

const parseTicket = (row: TicketRecord): TicketRecord => ({ ...row, tags: tagsSchema.parse(row.tags) });
const parseStaging = <Row extends StagingRecord>(row: Row): Row => ({ ...row, tags: tagsSchema.parse(row.tags) });

export function d1PipelineStore(db: D1Database): PipelineStore {
  const orm = drizzle(db);
  const stagingView = () =>
    orm
      .select({ ...getTableColumns(s), externalTicketId: t.ticketId })
      .from(s)
      .leftJoin(t, eq(t.id, s.ticketRowId));

  const getTicket = async (tenantId: string, id: string) => {
    const [row] = await orm
      .select()
      .from(t)
      .where(and(eq(t.id, id), eq(t.tenantId, tenantId)));
    return row ? parseTicket(row) : null;
  };

  return {
    backend: "d1",

    async insertTicket(tenantId, input, receivedAt, id = newId("tkt")) {
      const inserted = await orm
        .insert(t)
        .values(newTicketRow(id, tenantId, input, receivedAt))
        .onConflictDoNothing({ target: [t.tenantId, t.ticketId] })
        .returning({ id: t.id });
      const [row] = await orm
        .select()
        .from(t)
        .where(and(eq(t.tenantId, tenantId), eq(t.ticketId, input.ticketId)));
      if (!row) throw new Error("ticket row missing after insert");
      return { row: parseTicket(row), created: inserted.length > 0 };
    },

    async deleteReceivedTicket(tenantId, id) {
      await orm.delete(t).where(and(eq(t.id, id), eq(t.tenantId, tenantId), eq(t.status, "received"), eq(t.attempts, 0)));
    },

    getTicket,

    async listTickets(tenantId, { status, limit, before }) {
      const rows = await orm
        .select()
        .from(t)
        .where(and(eq(t.tenantId, tenantId), status ? eq(t.status, status) : undefined, lt(t.seq, before ?? Number.MAX_SAFE_INTEGER)))
        .orderBy(desc(t.seq))
        .limit(limit + 1);
      return pageOf(rows.map(parseTicket), limit);
    },

    async requeueTicket(tenantId, id) {
      const moved = await orm
        .update(t)
        .set({ status: "received", attempts: 0, leaseUntil: null })
        .where(and(eq(t.id, id), eq(t.tenantId, tenantId), eq(t.status, "dead_letter")))
        .returning({ id: t.id });
      return moved.length > 0;
    },

    async claimTicket(tenantId, id, now, leaseUntil) {
      const [row] = await orm
        .update(t)
        .set({ leaseUntil, attempts: sql`${t.attempts} + 1` })
        .where(and(eq(t.id, id), eq(t.tenantId, tenantId), eq(t.status, "received"), or(isNull(t.leaseUntil), lt(t.leaseUntil, now))))
        .returning();
      return row ? parseTicket(row) : null;
    },

    async releaseTicket(tenantId, id) {
      await orm
        .update(t)
        .set({ leaseUntil: null })
        .where(and(eq(t.id, id), eq(t.tenantId, tenantId)));
    },

    async storeDecision(ticket, decision, now) {
      // The staging id comes from the row itself: a staging item an earlier attempt stored is kept.
      const stagingId = sql<string | null>`(SELECT ${s.id} FROM ${s} WHERE ${s.ticketRowId} = ${ticket.id})`;
      const update = orm
        .update(t)
        .set({ ...decisionColumns(decision, now), stagingId })
        .where(and(eq(t.id, ticket.id), eq(t.status, "received")));
      if (!decision.staging) {
        await update;
        return;
      }
      const insert = orm
        .insert(s)
        .values(newStagingRow(ticket, decision, decision.staging, now))
        .onConflictDoNothing({ target: s.ticketRowId });
      await orm.batch([insert, update]);
    },

    async recordFailure(tenantId, id, reason) {
      await orm
        .update(t)
        .set({ lastError: reason.slice(0, 1000) })
        .where(and(eq(t.id, id), eq(t.tenantId, tenantId)));
    },

    async deadLetter(tenantId, id, attempts, reason) {
      await orm
        .update(t)
        .set({ status: "dead_letter", lastError: reason.slice(0, 1000), attempts: sql`MAX(${t.attempts}, ${attempts})`, leaseUntil: null })
        .where(and(eq(t.id, id), eq(t.tenantId, tenantId), eq(t.status, "received")));
    },

    async strandedTickets(receivedBefore, now, limit) {
      return orm
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
      return pageOf(rows.map(parseStaging), limit);
    },

    async getStaging(tenantId, id) {
      const [row] = await stagingView().where(and(eq(s.id, id), eq(s.tenantId, tenantId)));
      return row ? parseStaging(row) : null;
    },

    async stagingCounts(tenantId) {
      return countsByStatus(await orm.select({ status: s.status, n: count() }).from(s).where(eq(s.tenantId, tenantId)).groupBy(s.status));
    },

    async claimStaging(tenantId, id, review) {
      const [row] = await orm
        .update(s)
        .set({ status: review.status, reviewedBy: review.by, reviewedAt: review.at, rejectReason: review.rejectReason })
        .where(and(eq(s.id, id), eq(s.tenantId, tenantId), eq(s.status, "pending")))
        .returning();
      return row ? parseStaging(row) : null;
    },

    async rewritePendingStaging(tenantId, id, text) {
      const rows = await orm
        .update(s)
        .set(text)
        .where(and(eq(s.id, id), eq(s.tenantId, tenantId), eq(s.status, "pending")))
        .returning({ id: s.id });
      return rows.length > 0;
    },

    async reopenStaging(tenantId, id) {
      await orm
        .update(s)
        .set({ status: "pending", reviewedBy: null, reviewedAt: null })
        .where(and(eq(s.id, id), eq(s.tenantId, tenantId), isNull(s.resultFaqId)));
    },

    async recordApproval(item, resultFaqId, variantId) {
      const result = orm.update(s).set({ resultFaqId }).where(eq(s.id, item.id));
      if (variantId === null) await result;
      else await orm.batch([result, orm.update(t).set({ variantId }).where(eq(t.id, item.ticketRowId))]);
    },

    async counts(tenantId, decidedSince) {
      const day = sql<string>`date(${t.decidedAt} / 1000, 'unixepoch')`;
      const [decisionsByDay, ticketsByStatus, stagingByActionStatus] = await orm.batch([
        orm
          .select({ day, action: sql<string>`${t.action}`, n: count() })
          .from(t)
          .where(and(eq(t.tenantId, tenantId), eq(t.status, "decided"), sql`${t.decidedAt} >= ${decidedSince}`))
          .groupBy(day, t.action)
          .orderBy(day, t.action),
        orm.select({ status: t.status, n: count() }).from(t).where(eq(t.tenantId, tenantId)).groupBy(t.status),
        orm.select({ action: s.action, status: s.status, n: count() }).from(s).where(eq(s.tenantId, tenantId)).groupBy(s.action, s.status),
      ]);
      return { decisionsByDay, ticketsByStatus, stagingByActionStatus };
    },

    async approvedNewFaqIds(tenantId, limit) {
      const rows = await orm
        .select({ id: s.resultFaqId })
        .from(s)
        .where(and(eq(s.tenantId, tenantId), eq(s.action, "NEW"), eq(s.status, "approved"), isNotNull(s.resultFaqId)))
        .orderBy(desc(s.seq))
        .limit(limit);
      return rows.flatMap((r) => (r.id === null ? [] : [r.id]));
    },
  };
}
