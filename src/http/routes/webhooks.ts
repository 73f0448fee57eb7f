/**
 * POST /v1/webhooks/tickets: resolved support tickets from a helpdesk, signed, not Bearer-authed.
 *   X-Recall-Tenant: <tenant id>
 *   X-Recall-Timestamp: <unix seconds>
 *   X-Recall-Signature: v1=<hex HMAC-SHA256(secret, timestamp + "." + rawBody)>
 * Any mismatch (unknown tenant, no secret, bad/stale signature) is the same 401 (429 once a window
 * holds too many naming that tenant); only a verified delivery counts toward the tenant's own rate
 * limit (src/http/rate-limit.ts). Body: one ticket
 * or { tickets: [...] } (1..MAX_TICKETS_PER_DELIVERY). Each ticket is stored `received` and
 * enqueued (202); a ticket id the tenant already sent is answered 200 with its first outcome and
 * nothing else happens. A batch answers per ticket, as bulk APIs do: one bad ticket is listed in
 * `rejected` with its reasons while the good ones go on; only a batch with no good ticket is a 400.
 */
import { Hono } from "hono";
import { z } from "zod";
import { QueueUnavailable, storeAndEnqueue } from "../../features/tickets/intake";
import { activeWebhookSecrets } from "../../features/tickets/secrets";
import { verifySignature } from "../../features/tickets/signature";
import type { TicketMessage } from "../../platform/ports/ticket-message";
import { pipelineStore, webhookAuthDb } from "../../features/tickets/select";
import type { TicketRecord } from "../../features/tickets/store";
import { toTicket } from "../../features/tickets/store";
import { cleanTicketQuestion } from "../../core/text/ticket-clean";
import type { AppEnv } from "../context";
import { errorFields } from "../../platform/observe/log";
import { bindTenant } from "../access-log";
import { AppError } from "../errors";
import { type Detail, issueDetails, requireText, validationFailed, visibleText } from "../validation";
import { countVerifiedWebhook, refuseUnverifiedWebhook } from "../rate-limit";
import { ticketDocs } from "../docs/tickets";
import { describeBody } from "../openapi/describe";

export const MAX_WEBHOOK_BODY_BYTES = 256 * 1024;
export const MAX_TICKETS_PER_DELIVERY = 100;

const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i;

const ticketSchema = z.strictObject({
  ticketId: visibleText(200),
  subject: z.string().trim().max(500).default(""),
  question: visibleText(20_000),
  answer: visibleText(20_000),
  tags: z.array(visibleText(64)).max(32).default([]),
  /** Absent: resolved when delivered (a "ticket solved" hook fires then). */
  resolvedAt: z.iso.datetime({ offset: true }).optional(),
  source: visibleText(100).optional(),
});
const batchSchema = z.strictObject({ tickets: z.array(ticketSchema).min(1).max(MAX_TICKETS_PER_DELIVERY) });
/** The batch's envelope; each ticket in it is checked on its own (checkTicket). */
const envelopeSchema = z.strictObject({ tickets: z.array(z.unknown()).min(1).max(MAX_TICKETS_PER_DELIVERY) });

type DeliveredTicket = z.infer<typeof ticketSchema>;
type Rejected = { index: number; ticketId: string | null; message: string; details: Detail[] };

/** One ticket of a delivery, valid and with question text once cleaned, or what is wrong with it (paths under `prefix`). */
function checkTicket(raw: unknown, prefix: string): { ticket: DeliveredTicket } | { details: Detail[] } {
  const at = (path: string) => (!prefix ? path : path === "(root)" ? prefix : `${prefix}.${path}`);
  const parsed = ticketSchema.safeParse(raw);
  if (!parsed.success) return { details: issueDetails(parsed.error.issues).map((d) => ({ ...d, path: at(d.path) })) };
  if (!cleanTicketQuestion(undefined, parsed.data.question))
    return { details: [{ path: at("question"), message: "no question text once greetings and signatures are removed" }] };
  return { ticket: parsed.data };
}

const unauthorized = () => new AppError("UNAUTHORIZED", "The webhook signature is not valid");

export const webhooks = new Hono<AppEnv>().post(
  "/tickets",
  ticketDocs.deliver,
  describeBody(z.union([ticketSchema, batchSchema])),
  async (c) => {
    const services = c.get("services");
    const { clock } = services;
    const db = webhookAuthDb(services);
    const length = Number(c.req.header("content-length") ?? "0");
    if (length > MAX_WEBHOOK_BODY_BYTES)
      throw new AppError("PAYLOAD_TOO_LARGE", `The request body is larger than ${MAX_WEBHOOK_BODY_BYTES} bytes`);
    if (!JSON_TYPE.test(c.req.header("content-type") ?? ""))
      throw new AppError("UNSUPPORTED_MEDIA_TYPE", "Send the body as application/json");
    const bytes = await c.req.arrayBuffer();
    if (bytes.byteLength > MAX_WEBHOOK_BODY_BYTES)
      throw new AppError("PAYLOAD_TOO_LARGE", `The request body is larger than ${MAX_WEBHOOK_BODY_BYTES} bytes`);
    let rawBody: string;
    try {
      rawBody = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes);
    } catch {
      throw new AppError("BAD_REQUEST", "The request body is not valid UTF-8");
    }

    const tenantId = c.req.header("x-recall-tenant") ?? "";
    const now = clock.now();
    const secrets =
      tenantId && tenantId.length <= 100
        ? await activeWebhookSecrets(db, await services.secretBox(), tenantId, null, now, services.log)
        : [];
    const signed = await verifySignature({
      // No secret (or no such tenant): still verify against a throwaway one, so timing does not tell.
      secrets: secrets.length > 0 ? secrets : [crypto.randomUUID()],
      timestamp: c.req.header("x-recall-timestamp"),
      signature: c.req.header("x-recall-signature"),
      rawBody,
      nowMs: now,
    });
    const tenantKey = `tenant:${tenantId}`;
    if (!signed || secrets.length === 0) return refuseUnverifiedWebhook(c.env, tenantKey, unauthorized());
    await countVerifiedWebhook(c.env, tenantKey);
    bindTenant(c, tenantId);

    let json: unknown;
    try {
      json = JSON.parse(rawBody);
    } catch {
      throw new AppError("INVALID_JSON", "The request body is not valid JSON");
    }
    requireText(json);
    const { isBatch, batch, rejected } = readDelivery(json);

    let stored: { row: TicketRecord; created: boolean }[];
    try {
      stored = await storeAndEnqueue(
        pipelineStore(services),
        c.env.TICKETS as Queue<TicketMessage>,
        tenantId,
        batch.map((t) => ({ ...t, resolvedAt: t.resolvedAt === undefined ? now : Date.parse(t.resolvedAt) })),
        now,
      );
    } catch (error) {
      if (!(error instanceof QueueUnavailable)) throw error;
      c.get("log").error("ticket_enqueue_failed", errorFields(error));
      throw new AppError("UNAVAILABLE", "The ticket queue is unavailable; retry the delivery");
    }
    const fresh = stored.filter((s) => s.created);
    const status = fresh.length > 0 ? 202 : 200;
    const view = (s: { row: TicketRecord; created: boolean }) => ({ ...toTicket(s.row), duplicate: !s.created });
    return isBatch ? c.json({ tickets: stored.map(view), rejected }, status) : c.json(view(stored[0]!), status);
  },
);

/** The tickets of a parsed delivery: one ticket, or a batch's good ones and its rejected ones. */
function readDelivery(json: unknown): { isBatch: boolean; batch: DeliveredTicket[]; rejected: Rejected[] } {
  const isBatch = typeof json === "object" && json !== null && "tickets" in json;
  const batch: DeliveredTicket[] = [];
  const rejected: Rejected[] = [];
  if (isBatch) {
    const envelope = envelopeSchema.safeParse(json);
    if (!envelope.success) throw validationFailed(issueDetails(envelope.error.issues));
    const firstAt = new Map<string, number>();
    for (const [index, raw] of envelope.data.tickets.entries()) {
      const checked = checkTicket(raw, `tickets.${index}`);
      if ("details" in checked) {
        rejected.push({ index, ticketId: idOf(raw), ...reasons(checked.details) });
        continue;
      }
      const { ticket } = checked;
      const earlier = firstAt.get(ticket.ticketId);
      if (earlier !== undefined) {
        const repeated = { path: `tickets.${index}.ticketId`, message: `the same ticketId as tickets.${earlier}: send a ticket once` };
        rejected.push({ index, ticketId: ticket.ticketId, ...reasons([repeated]) });
        continue;
      }
      firstAt.set(ticket.ticketId, index);
      batch.push(ticket);
    }
    if (batch.length === 0)
      throw new AppError(
        "VALIDATION_FAILED",
        "No ticket of this delivery could be taken: each is listed with its reasons",
        rejected.flatMap((r) => r.details),
      );
  } else {
    const checked = checkTicket(json, "");
    if ("details" in checked) throw validationFailed(checked.details);
    batch.push(checked.ticket);
  }
  return { isBatch, batch, rejected };
}

function idOf(raw: unknown): string | null {
  const id = typeof raw === "object" && raw !== null ? (raw as { ticketId?: unknown }).ticketId : undefined;
  return typeof id === "string" ? id.slice(0, 200) : null;
}

const reasons = (details: Detail[]) => ({ message: validationFailed(details).message, details });
