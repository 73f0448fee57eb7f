/**
 * Stores tickets and enqueues the new ones, for every intake route (the native webhook and the
 * helpdesk connections). A ticket the tenant already sent (same ticket id) is not stored or
 * enqueued again. When the queue refuses, the new rows are removed again so the sender's retry
 * stores and enqueues them afresh: nothing half-written is left behind.
 */
import type { TicketMessage } from "./consume";
import { deleteReceivedTicket, insertTicket, type TicketInput, type TicketRow } from "./store";

export class QueueUnavailable extends Error {
  override name = "QueueUnavailable";
}

export interface StoredTicket {
  row: TicketRow;
  created: boolean;
}

export async function storeAndEnqueue(
  db: D1Database,
  queue: Queue<TicketMessage>,
  tenantId: string,
  inputs: readonly TicketInput[],
  now: number,
): Promise<StoredTicket[]> {
  const stored: StoredTicket[] = [];
  for (const input of inputs) stored.push(await insertTicket(db, tenantId, input, now));
  const fresh = stored.filter((s) => s.created);
  if (fresh.length === 0) return stored;
  try {
    await queue.sendBatch(
      fresh.map((s) => ({ body: { tenantId, ticketRowId: s.row.id } satisfies TicketMessage, contentType: "json" as const })),
    );
  } catch (error) {
    await Promise.all(fresh.map((s) => deleteReceivedTicket(db, tenantId, s.row.id)));
    throw new QueueUnavailable(String(error));
  }
  return stored;
}
