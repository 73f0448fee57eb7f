/**
 * POST /v1/webhooks/tickets/:provider/:connectionId — a helpdesk posts here directly (issue 17).
 * Per delivery: size (413) → the connection's active secrets → the provider's own verification
 * (401 WEBHOOK_SIGNATURE_INVALID, the same for an unknown or revoked connection; 429 once a window
 * holds too many) → the connection's rate limit, counted only now (429) → Front's challenge →
 * JSON (400) → a delivery key seen before answers 200 from its record → the provider's mapping: a
 * solved ticket is stored and queued (202 queued), a conversation message is gathered (202
 * gathered), anything else is acknowledged and recorded with its reason (202 skipped) so the
 * helpdesk does not retry it. A delivery is recorded only after its effects are stored.
 */
import { Hono } from "hono";
import { z } from "zod";
import { type HelpdeskProvider, helpdeskProviders } from "../../platform/db/schema/helpdesk";
import { getConnection } from "../../features/helpdesk/connections";
import {
  type DeliveryRow,
  findDelivery,
  forgetThread,
  gatherThreadPart,
  getThread,
  recordDelivery,
  toDelivery,
} from "../../features/helpdesk/deliveries";
import { providers } from "../../features/helpdesk/providers";
import { clampTicket, type Delivery, type Mapped } from "../../features/helpdesk/types";
import { sha256Base64Url } from "../../features/helpdesk/verify";
import { cleanTicketQuestion } from "../../core/text/ticket-clean";
import type { TicketMessage } from "../../platform/ports/ticket-message";
import { QueueUnavailable, storeAndEnqueue } from "../../features/tickets/intake";
import { activeWebhookSecrets } from "../../features/tickets/secrets";
import type { TicketInput } from "../../platform/ports/ticket-message";
import { pipelineStore, webhookAuthDb } from "../../features/tickets/select";
import { toTicket } from "../../features/tickets/store";
import type { AppEnv } from "../context";
import { errorFields } from "../../platform/observe/log";
import { bindTenant } from "../access-log";
import { AppError } from "../errors";
import { countVerifiedWebhook, refuseUnverifiedWebhook } from "../rate-limit";
import { requireText, validate } from "../validation";
import { describeBody } from "../openapi/describe";
import { helpdeskDocs } from "../docs/helpdesks";
import { MAX_WEBHOOK_BODY_BYTES } from "./webhooks";

// A path segment is never empty: provider is min 1 in the document too (an empty one is another URL, found by npm run fuzz).
const params = z.object({ provider: z.string().min(1).max(100), connectionId: z.string().min(1).max(100) });
const isProvider = (p: string): p is HelpdeskProvider => (helpdeskProviders as readonly string[]).includes(p);

const invalidSignature = () => new AppError("WEBHOOK_SIGNATURE_INVALID", "The webhook signature is not valid");
const tooLarge = () => new AppError("PAYLOAD_TOO_LARGE", `The request body is larger than ${MAX_WEBHOOK_BODY_BYTES} bytes`);

export const helpdeskWebhooks = new Hono<AppEnv>().post(
  "/:provider/:connectionId",
  helpdeskDocs.deliver,
  // The helpdesk's own event, read raw (its signature covers the exact bytes).
  describeBody(z.record(z.string(), z.unknown()).describe("The provider's native webhook event, as it sends it")),
  validate("param", params),
  async (c) => {
    const services = c.get("services");
    const { clock, secretBox, log } = services;
    const db = webhookAuthDb(services);
    const { provider, connectionId } = c.req.valid("param");
    if (!isProvider(provider)) throw new AppError("NOT_FOUND", `No helpdesk "${provider}" (one of ${helpdeskProviders.join(", ")})`);
    const module = providers[provider];
    if (Number(c.req.header("content-length") ?? "0") > MAX_WEBHOOK_BODY_BYTES) throw tooLarge();
    const bytes = await c.req.arrayBuffer();
    if (bytes.byteLength > MAX_WEBHOOK_BODY_BYTES) throw tooLarge();
    let rawBody: string;
    try {
      rawBody = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes);
    } catch {
      throw new AppError("BAD_REQUEST", "The request body is not valid UTF-8");
    }
    const now = clock.now();
    const delivery: Delivery = { rawBody, header: (name) => c.req.header(name), nowMs: now };

    const connection = await getConnection(db, connectionId);
    const live = connection && connection.provider === provider && connection.revokedAt === null;
    const secrets = live ? await activeWebhookSecrets(db, await secretBox(), connection.tenantId, connection.id, now, log) : [];
    // No usable secret: verify against a throwaway one anyway, so timing does not tell.
    const signed = await module.verify(delivery, secrets.length > 0 ? secrets : [`whsec_${btoa(crypto.randomUUID())}`]);
    const tenantKey = `connection:${provider}/${connectionId}`;
    if (!signed || !live || secrets.length === 0) return refuseUnverifiedWebhook(c.env, tenantKey, invalidSignature());
    await countVerifiedWebhook(c.env, tenantKey);
    const tenantId = connection.tenantId;
    bindTenant(c, tenantId);

    const challenge = module.challenge?.(delivery);
    if (challenge) return c.json({ challenge }, 200);

    let json: unknown;
    try {
      json = JSON.parse(rawBody);
    } catch {
      throw new AppError("INVALID_JSON", "The request body is not valid JSON");
    }
    requireText(json);
    const deliveryKey = module.deliveryId(delivery, json) ?? `sha256:${await sha256Base64Url(rawBody)}`;
    const seen = await findDelivery(db, connection.id, deliveryKey);
    if (seen) return c.json({ status: "duplicate_delivery" as const, delivery: toDelivery(seen) }, 200);

    const record = (outcome: DeliveryRow["outcome"], extra: Partial<DeliveryRow>) =>
      recordDelivery(db, {
        connectionId: connection.id,
        deliveryKey,
        tenantId,
        receivedAt: now,
        outcome,
        reason: null,
        externalId: null,
        ticketRowId: null,
        ...extra,
      });
    const skip = async (reason: string, externalId?: string) => {
      await record("skipped", { reason, externalId: externalId ?? null });
      c.get("log").info("helpdesk_delivery_skipped", { provider, connectionId, reason });
      return c.json({ status: "skipped" as const, reason, externalId: externalId ?? null }, 202);
    };

    let mapped: Mapped = module.map(json, delivery);
    if (mapped.kind === "invalid")
      throw new AppError("VALIDATION_FAILED", `Not a ${provider} delivery Recall understands: ${mapped.message}`);
    if (mapped.kind === "skip") return skip(mapped.reason, mapped.externalId);
    if (mapped.kind === "thread_part") {
      await gatherThreadPart(db, tenantId, connection.id, mapped.part, now);
      await record("gathered", { reason: "waiting for the solved event", externalId: mapped.part.externalId });
      return c.json({ status: "gathered" as const, externalId: mapped.part.externalId }, 202);
    }
    let fromThread = false;
    if (mapped.kind === "solved_thread") {
      const thread = await getThread(db, connection.id, mapped.externalId);
      const question = mapped.question || thread?.question;
      if (!question) return skip("no customer message was gathered before the solved event", mapped.externalId);
      if (!thread?.answer) return skip("no public agent reply was gathered before the solved event", mapped.externalId);
      fromThread = true;
      mapped = {
        kind: "ticket",
        ticket: clampTicket(provider, {
          externalId: mapped.externalId,
          subject: mapped.subject || thread.subject,
          question,
          answer: thread.answer,
          tags: mapped.tags,
          resolvedAt: mapped.resolvedAt,
        }),
      };
    }
    const ticket: TicketInput = mapped.ticket;
    const externalId = ticket.ticketId.slice(provider.length + 1);
    if (!cleanTicketQuestion(ticket.subject, ticket.question))
      return skip("no question text once greetings, quotes and signatures are removed", externalId);

    let stored;
    try {
      [stored] = await storeAndEnqueue(pipelineStore(services), c.env.TICKETS as Queue<TicketMessage>, tenantId, [ticket], now);
    } catch (error) {
      if (!(error instanceof QueueUnavailable)) throw error;
      c.get("log").error("ticket_enqueue_failed", { provider, ...errorFields(error) });
      throw new AppError("UNAVAILABLE", "The ticket queue is unavailable; retry the delivery");
    }
    if (!stored) throw new Error("storeAndEnqueue returned nothing");
    if (fromThread) await forgetThread(db, connection.id, externalId);
    await record(stored.created ? "queued" : "duplicate_ticket", { externalId, ticketRowId: stored.row.id });
    const answer = toTicket(stored.row);
    return stored.created
      ? c.json({ status: "queued" as const, ticket: answer }, 202)
      : c.json({ status: "duplicate_ticket" as const, ticket: answer }, 200);
  },
);
