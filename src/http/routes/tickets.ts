/** /v1/tickets: what the pipeline did with each ticket; admins list dead-lettered ones and requeue them. */
import { Hono } from "hono";
import { z } from "zod";
import { ticketStatuses } from "../../platform/db/schema";
import type { TicketMessage } from "../../platform/ports/ticket-message";
import { pipelineStore } from "../../features/tickets/select";
import { toTicket } from "../../features/tickets/store";
import { cleanTicketKeepingVocabulary } from "../../features/tickets/vocabulary";
import type { AppEnv } from "../context";
import { AppError } from "../errors";
import { requireAdmin } from "../middleware/require-admin";
import { afterSeq, cursorParam, seqCursor } from "../pagination";
import { validate } from "../validation";
import { idParam } from "../schemas/shared";
import { ticketDocs } from "../docs/tickets";

const listQuery = z.strictObject({
  status: z.enum(ticketStatuses).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
  cursor: cursorParam,
});

export const tickets = new Hono<AppEnv>()
  .get("/", ticketDocs.list, validate("query", listQuery), async (c) => {
    const { cursor, ...query } = c.req.valid("query");
    const { rows, nextCursor } = await pipelineStore(c.get("services")).listTickets(c.get("principal").tenantId, {
      ...query,
      before: afterSeq("tickets", cursor),
    });
    return c.json({ tickets: rows.map(toTicket), nextCursor: seqCursor("tickets", nextCursor) });
  })
  .get("/:id", ticketDocs.read, validate("param", idParam), async (c) => {
    const { tenantId } = c.get("principal");
    const row = await pipelineStore(c.get("services")).getTicket(tenantId, c.req.valid("param").id);
    if (!row) throw new AppError("NOT_FOUND", "No such ticket");
    return c.json({ ...toTicket(row), cleaning: await cleanTicketKeepingVocabulary(c.get("services"), tenantId, row) });
  })
  .post("/:id/requeue", ticketDocs.requeue, requireAdmin, validate("param", idParam), async (c) => {
    const store = pipelineStore(c.get("services"));
    const { tenantId } = c.get("principal");
    const id = c.req.valid("param").id;
    if (!(await store.requeueTicket(tenantId, id))) {
      if (!(await store.getTicket(tenantId, id))) throw new AppError("NOT_FOUND", "No such ticket");
      throw new AppError("CONFLICT", "Only a dead-lettered ticket can be requeued");
    }
    await c.env.TICKETS.send({ tenantId, ticketRowId: id } satisfies TicketMessage, { contentType: "json" });
    return c.json(toTicket((await store.getTicket(tenantId, id))!), 202);
  });
