/**
 * What the TICKETS queue carries, one message per ticket: intake, the cron's sweep and a requeue
 * send it, src/features/tickets/consume.ts reads it. A port: the Services bundle types the queue
 * binding with it.
 */

/** A resolved ticket as a webhook delivers it, once its helpdesk's format is read. */
export interface TicketInput {
  ticketId: string;
  subject: string;
  question: string;
  answer: string;
  tags: string[];
  /** Epoch milliseconds. */
  resolvedAt: number;
  source?: string | undefined;
}

export interface TicketMessage {
  tenantId: string;
  ticketRowId: string;
  /** The ticket itself, when intake could not store it (src/features/tickets/intake.ts): the consumer inserts it first. */
  ticket?: TicketInput & { receivedAt: number };
}
