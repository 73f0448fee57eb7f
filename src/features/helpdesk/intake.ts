/**
 * What a verified helpdesk delivery comes to. A delivery key seen before is answered from its
 * record; otherwise the provider's mapping decides: a solved ticket is stored and queued, a
 * conversation message is gathered, anything else is skipped with its reason (acknowledged, so the
 * helpdesk does not retry it). A delivery is recorded only after its effects are stored, so a retry
 * after a failure is processed afresh.
 */
import { cleanTicketQuestion } from "../../core/text/ticket-clean";
import type { Services } from "../../platform/ports/services";
import type { TicketInput, TicketMessage } from "../../platform/ports/ticket-message";
import { type QueueUnavailable, storeAndEnqueue } from "../tickets/intake";
import type { TicketRecord } from "../tickets/port";
import { pipelineStore, webhookAuthDb } from "../tickets/select";
import type { ConnectionRow } from "./connections";
import { type DeliveryRow, findDelivery, forgetThread, gatherThreadPart, getThread, recordDelivery } from "./deliveries";
import { providers } from "./providers";
import { clampTicket, type Delivery, type Mapped } from "./types";
import { sha256Base64Url } from "./verify";

export type DeliveryOutcome =
  | { kind: "duplicate_delivery"; delivery: DeliveryRow }
  /** Signed, but not the shape the provider documents: nothing is recorded. */
  | { kind: "invalid"; message: string }
  | { kind: "skipped"; reason: string; externalId: string | null }
  | { kind: "gathered"; externalId: string }
  | { kind: "queued" | "duplicate_ticket"; ticket: TicketRecord }
  /** Nothing is recorded either: the helpdesk's retry is processed afresh. */
  | { kind: "queue_unavailable"; error: QueueUnavailable };

export async function takeDelivery(
  services: Pick<Services, "db" | "home" | "faqPostgres">,
  queue: Queue<TicketMessage>,
  connection: ConnectionRow,
  delivery: Delivery,
  json: unknown,
): Promise<DeliveryOutcome> {
  const db = webhookAuthDb(services);
  const { provider, tenantId } = connection;
  const module = providers[provider];
  const now = delivery.nowMs;
  const deliveryKey = module.deliveryId(delivery, json) ?? `sha256:${await sha256Base64Url(delivery.rawBody)}`;
  const seen = await findDelivery(db, connection.id, deliveryKey);
  if (seen) return { kind: "duplicate_delivery", delivery: seen };

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
  const skip = async (reason: string, externalId?: string): Promise<DeliveryOutcome> => {
    await record("skipped", { reason, externalId: externalId ?? null });
    return { kind: "skipped", reason, externalId: externalId ?? null };
  };

  const mapped = module.map(json, delivery);
  if (mapped.kind === "invalid") return { kind: "invalid", message: mapped.message };
  if (mapped.kind === "skip") return skip(mapped.reason, mapped.externalId);
  if (mapped.kind === "thread_part") {
    await gatherThreadPart(db, tenantId, connection.id, mapped.part, now);
    await record("gathered", { reason: "waiting for the solved event", externalId: mapped.part.externalId });
    return { kind: "gathered", externalId: mapped.part.externalId };
  }
  const fromThread = mapped.kind === "solved_thread";
  const ticket = fromThread ? await threadTicket(db, connection, mapped) : mapped.ticket;
  if ("skip" in ticket) return skip(ticket.skip, ticket.externalId);
  const externalId = ticket.ticketId.slice(provider.length + 1);
  if (!cleanTicketQuestion(ticket.subject, ticket.question))
    return skip("no question text once greetings, quotes and signatures are removed", externalId);

  const intake = await storeAndEnqueue(pipelineStore(services), queue, tenantId, [ticket], now);
  if (intake.kind === "queue_unavailable") return intake;
  const [stored] = intake.stored;
  if (!stored) throw new Error("storeAndEnqueue returned nothing");
  if (fromThread) await forgetThread(db, connection.id, externalId);
  const kind = stored.created ? "queued" : "duplicate_ticket";
  await record(kind, { externalId, ticketRowId: stored.row.id });
  return { kind, ticket: stored.row };
}

/** A solved event's ticket from the messages gathered before it, or why there is none yet. */
async function threadTicket(
  db: D1Database,
  connection: ConnectionRow,
  solved: Extract<Mapped, { kind: "solved_thread" }>,
): Promise<TicketInput | { skip: string; externalId: string }> {
  const { externalId } = solved;
  const thread = await getThread(db, connection.id, externalId);
  const question = solved.question || thread?.question;
  if (!question) return { skip: "no customer message was gathered before the solved event", externalId };
  if (!thread?.answer) return { skip: "no public agent reply was gathered before the solved event", externalId };
  return clampTicket(connection.provider, {
    externalId,
    subject: solved.subject || thread.subject,
    question,
    answer: thread.answer,
    tags: solved.tags,
    resolvedAt: solved.resolvedAt,
  });
}
