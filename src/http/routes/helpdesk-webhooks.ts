/**
 * POST /v1/webhooks/tickets/:provider/:connectionId — a helpdesk posts here directly (issue 17).
 * Per delivery: size (413) → the connection's active secrets → the provider's own verification
 * (401 WEBHOOK_SIGNATURE_INVALID, the same for an unknown or revoked connection; 429 once a window
 * holds too many) → the connection's rate limit, counted only now (429) → Front's challenge →
 * JSON (400) → what the delivery comes to (src/features/helpdesk/intake.ts): 200 from the record of
 * a delivery key seen before, 202 queued, gathered or skipped, 200 for a ticket already sent.
 */
import { Hono, type MiddlewareHandler } from "hono";
import { z } from "zod";
import { type HelpdeskProvider, helpdeskProviders } from "../../platform/db/schema/helpdesk";
import { toDelivery } from "../../features/helpdesk/deliveries";
import { takeDelivery } from "../../features/helpdesk/intake";
import { providers } from "../../features/helpdesk/providers";
import type { Delivery } from "../../features/helpdesk/types";
import { verifiedConnection } from "../../features/helpdesk/verify-delivery";
import { servicesForWrites } from "../tenant-moving";
import { toTicket } from "../../features/tickets/store";
import type { TicketMessage } from "../../platform/ports/ticket-message";
import type { AppEnv } from "../context";
import { helpdeskDocs } from "../docs/helpdesks";
import { AppError } from "../errors";
import { rawBody } from "../middleware/raw-body";
import { describeBody } from "../openapi/describe";
import { admitWebhook, enqueueFailed, signedJson } from "../signed-webhook";
import { validate } from "../validation";

// A path segment is never empty: provider is min 1 in the document too (an empty one is another URL, found by npm run fuzz).
const params = z.object({ provider: z.string().min(1).max(100), connectionId: z.string().min(1).max(100) });
const isProvider = (p: string): p is HelpdeskProvider => (helpdeskProviders as readonly string[]).includes(p);

/** The helpdesk a path names; one Recall does not know is a 404. */
function helpdesk(name: string): HelpdeskProvider {
  if (!isProvider(name)) throw new AppError("NOT_FOUND", `No helpdesk "${name}" (one of ${helpdeskProviders.join(", ")})`);
  return name;
}

/** Before the body is read: an unknown helpdesk is a 404, whatever was sent. */
const knownProvider: MiddlewareHandler<AppEnv> = async (c, next) => {
  helpdesk(c.req.param("provider") ?? "");
  await next();
};

export const helpdeskWebhooks = new Hono<AppEnv>().post(
  "/:provider/:connectionId",
  helpdeskDocs.deliver,
  // The helpdesk's own event, read raw (its signature covers the exact bytes).
  describeBody(z.record(z.string(), z.unknown()).describe("The provider's native webhook event, as it sends it")),
  validate("param", params),
  knownProvider,
  rawBody(),
  async (c) => {
    const services = c.get("services");
    const { provider: name, connectionId } = c.req.valid("param");
    const provider = helpdesk(name);
    const delivery: Delivery = { rawBody: c.get("rawBody"), header: (name) => c.req.header(name), nowMs: services.clock.now() };
    const verified = await verifiedConnection(services, provider, connectionId, delivery);
    const connection = await admitWebhook(c, `connection:${provider}/${connectionId}`, verified, "WEBHOOK_SIGNATURE_INVALID");

    const challenge = providers[provider].challenge?.(delivery);
    if (challenge) return c.json({ challenge }, 200);
    const json = signedJson(delivery.rawBody);
    const placed = await servicesForWrites(services, connection.tenantId);
    const outcome = await takeDelivery(placed, c.env.TICKETS as Queue<TicketMessage>, connection, delivery, json);
    switch (outcome.kind) {
      case "duplicate_delivery":
        return c.json({ status: "duplicate_delivery" as const, delivery: toDelivery(outcome.delivery) }, 200);
      case "invalid":
        throw new AppError("VALIDATION_FAILED", `Not a ${provider} delivery Recall understands: ${outcome.message}`);
      case "skipped":
        c.get("log").info("helpdesk_delivery_skipped", { provider, connectionId, reason: outcome.reason });
        return c.json({ status: "skipped" as const, reason: outcome.reason, externalId: outcome.externalId }, 202);
      case "gathered":
        return c.json({ status: "gathered" as const, externalId: outcome.externalId }, 202);
      case "queued":
        return c.json({ status: "queued" as const, ticket: toTicket(outcome.ticket) }, 202);
      case "duplicate_ticket":
        return c.json({ status: "duplicate_ticket" as const, ticket: toTicket(outcome.ticket) }, 200);
      case "queue_unavailable":
        return enqueueFailed(c, outcome.error, { provider });
    }
  },
);
