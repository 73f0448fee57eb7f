/**
 * Stores tickets and enqueues the new ones, for every intake route (the native webhook and the
 * helpdesk connections). A ticket the tenant already sent (same ticket id) is not stored or
 * enqueued again. When the queue refuses, the new rows are removed again so the sender's retry
 * stores and enqueues them afresh: nothing half-written is left behind, and the outcome says so
 * (`queue_unavailable`) for the route to ask for that retry.
 *
 * When the pipeline store is unavailable (Postgres down: StoreUnavailableError), the ticket is
 * not lost and the sender is not refused: the whole validated ticket travels in its queue message
 * (the queue is durable), and the consumer inserts it, idempotently on (tenant, ticket id) and
 * under the id answered here, before deciding it (consume.ts).
 */
import { StoreUnavailableError } from "../faqs/port";
import { newId } from "../../core/base/ids";
import type { TicketMessage } from "../../platform/ports/ticket-message";
import type { PipelineStore, TicketRecord } from "./port";
import type { TicketInput } from "../../platform/ports/ticket-message";
import { unstoredTicket } from "./rows";

export class QueueUnavailable extends Error {
  override name = "QueueUnavailable";
}

export interface StoredTicket {
  row: TicketRecord;
  created: boolean;
  /** Not stored yet: it rides in its queue message (the store was unavailable). */
  carried?: TicketInput;
}

export type Intake = { kind: "stored"; stored: StoredTicket[] } | { kind: "queue_unavailable"; error: QueueUnavailable };

/** Below the queue's 256 KB per sendBatch (and 128 KB per message: a webhook body is at most 256 KB, a ticket far less). */
const SEND_BATCH_BYTES = 200_000;

export async function storeAndEnqueue(
  store: PipelineStore,
  queue: Queue<TicketMessage>,
  tenantId: string,
  inputs: readonly TicketInput[],
  now: number,
): Promise<Intake> {
  const stored: StoredTicket[] = [];
  let storeDown = false;
  for (const input of inputs) {
    // One id either way: an insert that timed out may still land later, under the id the sender was told.
    const id = newId("tkt");
    if (!storeDown) {
      try {
        stored.push(await store.insertTicket(tenantId, input, now, id));
        continue;
      } catch (error) {
        if (!(error instanceof StoreUnavailableError)) throw error;
        // The rest would wait for the same timeout: carry them all.
        storeDown = true;
      }
    }
    stored.push({ row: unstoredTicket(id, tenantId, input, now), created: true, carried: input });
  }
  const fresh = stored.filter((s) => s.created);
  if (fresh.length === 0) return { kind: "stored", stored };
  const messages = fresh.map((s) => ({
    body: {
      tenantId,
      ticketRowId: s.row.id,
      ...(s.carried ? { ticket: { ...s.carried, receivedAt: now } } : {}),
    } satisfies TicketMessage,
    contentType: "json" as const,
  }));
  try {
    for (const chunk of bySize(messages, SEND_BATCH_BYTES)) await queue.sendBatch(chunk);
  } catch (error) {
    await Promise.all(fresh.filter((s) => !s.carried).map((s) => store.deleteReceivedTicket(tenantId, s.row.id))).catch(() => {});
    return { kind: "queue_unavailable", error: new QueueUnavailable(String(error)) };
  }
  return { kind: "stored", stored };
}

function bySize<M extends { body: unknown }>(messages: readonly M[], maxBytes: number): M[][] {
  const chunks: M[][] = [];
  let size = Number.POSITIVE_INFINITY;
  for (const message of messages) {
    const bytes = JSON.stringify(message.body).length;
    if (size + bytes > maxBytes) {
      chunks.push([]);
      size = 0;
    }
    chunks[chunks.length - 1]!.push(message);
    size += bytes;
  }
  return chunks;
}
