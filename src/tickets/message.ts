/**
 * What the TICKETS queue carries, one message per ticket: intake, the cron's sweep and a requeue
 * send it, consume.ts reads it. Not in consume.ts: services.ts types the queue binding with it,
 * and consume.ts depends on services.
 */
import type { TicketInput } from "./port";

export interface TicketMessage {
  tenantId: string;
  ticketRowId: string;
  /** The ticket itself, when intake could not store it (src/tickets/intake.ts): the consumer inserts it first. */
  ticket?: TicketInput & { receivedAt: number };
}
