/**
 * The native webhook's body (routes/webhooks.ts): one ticket, or a batch answered per ticket, as
 * bulk APIs do: one bad ticket is listed in `rejected` with its reasons while the good ones go on;
 * only a batch with no good ticket is a 400.
 */
import { z } from "zod";
import { cleanTicketQuestion } from "../../core/text/ticket-clean";
import { AppError } from "../errors";
import { type Detail, issueDetails, validationFailed, visibleText } from "../validation";

export const MAX_TICKETS_PER_DELIVERY = 100;

export const ticketSchema = z.strictObject({
  ticketId: visibleText(200),
  subject: z.string().trim().max(500).default(""),
  question: visibleText(20_000),
  answer: visibleText(20_000),
  tags: z.array(visibleText(64)).max(32).default([]),
  /** Absent: resolved when delivered (a "ticket solved" hook fires then). */
  resolvedAt: z.iso.datetime({ offset: true }).optional(),
  source: visibleText(100).optional(),
});
export const batchSchema = z.strictObject({ tickets: z.array(ticketSchema).min(1).max(MAX_TICKETS_PER_DELIVERY) });
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

/** The tickets of a parsed delivery: one ticket, or a batch's good ones and its rejected ones. */
export function readDelivery(json: unknown): { isBatch: boolean; batch: DeliveredTicket[]; rejected: Rejected[] } {
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
