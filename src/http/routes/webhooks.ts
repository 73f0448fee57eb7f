/**
 * POST /v1/webhooks/tickets: resolved support tickets from a helpdesk, signed, not Bearer-authed.
 *   X-Recall-Tenant: <tenant id>
 *   X-Recall-Timestamp: <unix seconds>
 *   X-Recall-Signature: v1=<hex HMAC-SHA256(secret, timestamp + "." + rawBody)>
 * Any mismatch (unknown tenant, no secret, bad/stale signature) is the same 401 (429 once a window
 * holds too many naming that tenant); only a verified delivery counts toward the tenant's own rate
 * limit (src/http/rate-limit.ts). Body: one ticket or { tickets: [...] } (schemas/tickets.ts). Each
 * ticket is stored `received` and enqueued (202); a ticket id the tenant already sent is answered
 * 200 with its first outcome and nothing else happens.
 */
import { Hono } from "hono";
import { z } from "zod";
import { type StoredTicket, storeAndEnqueue } from "../../features/tickets/intake";
import { pipelineStore } from "../../features/tickets/select";
import { toTicket } from "../../features/tickets/store";
import { signedByTenant } from "../../features/tickets/verify-delivery";
import { servicesForWrites } from "../tenant-moving";
import type { TicketMessage } from "../../platform/ports/ticket-message";
import type { AppEnv } from "../context";
import { ticketDocs } from "../docs/tickets";
import { rawBody } from "../middleware/raw-body";
import { describeBody } from "../openapi/describe";
import { batchSchema, readDelivery, ticketSchema } from "../schemas/tickets";
import { admitWebhook, enqueueFailed, signedJson } from "../signed-webhook";

export const webhooks = new Hono<AppEnv>().post(
  "/tickets",
  ticketDocs.deliver,
  describeBody(z.union([ticketSchema, batchSchema])),
  rawBody({ json: true }),
  async (c) => {
    const services = c.get("services");
    const now = services.clock.now();
    const named = c.req.header("x-recall-tenant") ?? "";
    const signature = { timestamp: c.req.header("x-recall-timestamp"), signature: c.req.header("x-recall-signature") };
    const signed = await signedByTenant(services, named, { ...signature, rawBody: c.get("rawBody") }, now);
    const { tenantId } = await admitWebhook(c, `tenant:${named}`, signed ? { tenantId: named } : null, "UNAUTHORIZED");

    const { isBatch, batch, rejected } = readDelivery(signedJson(c.get("rawBody")));
    const tickets = batch.map((t) => ({ ...t, resolvedAt: t.resolvedAt === undefined ? now : Date.parse(t.resolvedAt) }));
    const placed = await servicesForWrites(services, tenantId);
    const intake = await storeAndEnqueue(pipelineStore(placed), c.env.TICKETS as Queue<TicketMessage>, tenantId, tickets, now);
    if (intake.kind === "queue_unavailable") return enqueueFailed(c, intake.error);
    const { stored } = intake;
    const status = stored.some((s) => s.created) ? 202 : 200;
    const view = (s: StoredTicket) => ({ ...toTicket(s.row), duplicate: !s.created });
    return isBatch ? c.json({ tickets: stored.map(view), rejected }, status) : c.json(view(stored[0]!), status);
  },
);
