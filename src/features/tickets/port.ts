/**
 * The ticket pipeline's storage port: tickets and their staging items (the review queue). Two
 * adapters, chosen with the FAQ store (src/features/tickets/select.ts): D1 (d1-store.ts, the default) and
 * Postgres (postgres/store.ts, with FAQ_STORE=postgres, next to the FAQs its decisions create).
 * Rows cross the port in one shape, drizzle's inferred D1 row with its JSON columns parsed.
 *
 * Webhook secrets and helpdesk connections are not here: they stay on D1 on every backend, so a
 * webhook can be authenticated (and its ticket accepted, queue-carried) while Postgres is down.
 */
import type { stagingItems, StagingStatus, TicketStatus, tickets } from "../../platform/db/schema";
import type { TicketInput } from "../../platform/ports/ticket-message";
import type { TicketAction } from "./decide";

export type TicketRecord = typeof tickets.$inferSelect;
export type StagingRecord = typeof stagingItems.$inferSelect;
/** A staging item with the sender's ticket id of the ticket it came from (null if that ticket is gone). */
export type StagingView = StagingRecord & { externalTicketId: string | null };

export interface NewStagingItem {
  id: string;
  action: "MERGE" | "NEW";
  question: string;
  answer: string;
  tags: string[];
  faqId: string | null;
  variantText: string | null;
}

/** What the consumer decided for a ticket; stored with its staging item in one write. */
export interface TicketDecision {
  action: TicketAction;
  cleanedQuestion: string;
  similarity: number | null;
  similarityMethod: TicketRecord["similarityMethod"];
  matchedFaqId: string | null;
  matchedVariantId: string | null;
  judge: string | null;
  rationale: string;
  variantId: string | null;
  staging: NewStagingItem | null;
}

export interface Page<Row> {
  rows: Row[];
  /** The seq to pass as `before` for the next page; null on the last page. */
  nextCursor: number | null;
}

export interface PipelineCounts {
  /** Decided tickets by UTC day (YYYY-MM-DD) and action, since the given time. */
  decisionsByDay: { day: string; action: string; n: number }[];
  ticketsByStatus: { status: string; n: number }[];
  stagingByActionStatus: { action: string; status: string; n: number }[];
}

export interface PipelineStore {
  readonly backend: "d1" | "postgres";

  /**
   * Inserts the ticket unless the tenant already has this ticket id (`created: false` returns the
   * first one). `id` is the row id to use: a queue-carried ticket keeps the id its webhook answered.
   */
  insertTicket(tenantId: string, input: TicketInput, receivedAt: number, id?: string): Promise<{ row: TicketRecord; created: boolean }>;
  /** Removes a ticket that was stored but could not be enqueued (the sender is told to retry). */
  deleteReceivedTicket(tenantId: string, id: string): Promise<void>;
  getTicket(tenantId: string, id: string): Promise<TicketRecord | null>;
  listTickets(
    tenantId: string,
    args: { status?: TicketStatus | undefined; limit: number; before?: number | undefined },
  ): Promise<Page<TicketRecord>>;
  /** Moves a dead-lettered ticket back to `received` with no attempts; false when it is not dead-lettered. */
  requeueTicket(tenantId: string, id: string): Promise<boolean>;
  /** Takes a `received` ticket nobody holds until `leaseUntil`, counting the attempt; null when it cannot be claimed. */
  claimTicket(tenantId: string, id: string, now: number, leaseUntil: number): Promise<TicketRecord | null>;
  /** Gives a claimed ticket's lease back so a retry can claim it at once. */
  releaseTicket(tenantId: string, id: string): Promise<void>;
  /** Stores the decision and its staging item (if any) together; a staging item already stored for the ticket stays. */
  storeDecision(ticket: TicketRecord, decision: TicketDecision, now: number): Promise<void>;
  recordFailure(tenantId: string, id: string, reason: string): Promise<void>;
  deadLetter(tenantId: string, id: string, attempts: number, reason: string): Promise<void>;
  /** `received` tickets that arrived before `receivedBefore` and nobody holds (any tenant), oldest first. */
  strandedTickets(receivedBefore: number, now: number, limit: number): Promise<{ id: string; tenantId: string }[]>;

  listStaging(tenantId: string, args: { status: StagingStatus; limit: number; before?: number | undefined }): Promise<Page<StagingView>>;
  getStaging(tenantId: string, id: string): Promise<StagingView | null>;
  /** How many items the tenant has in each status (the review desk's tabs). */
  stagingCounts(tenantId: string): Promise<Record<StagingStatus, number>>;
  /** Takes the item out of `pending` (only one reviewer wins); null when it is not pending. */
  claimStaging(
    tenantId: string,
    id: string,
    review: { status: "approved" | "rejected"; by: string; at: number; rejectReason: string | null },
  ): Promise<StagingRecord | null>;
  /** Puts a claimed item back to `pending` (its review could not be applied), unless a result was already recorded. */
  reopenStaging(tenantId: string, id: string): Promise<void>;
  /** Replaces a pending item's text (the upkeep that re-cleans personal details); false when it is no longer pending. */
  rewritePendingStaging(
    tenantId: string,
    id: string,
    text: { question: string; answer: string; variantText: string | null },
  ): Promise<boolean>;
  /** Records what an approval applied: the FAQ on the item, the variant (if any) on its ticket. */
  recordApproval(item: StagingRecord, resultFaqId: string, variantId: string | null): Promise<void>;

  counts(tenantId: string, decidedSince: number): Promise<PipelineCounts>;
  /** FAQ ids that approving NEW items created, newest first. */
  approvedNewFaqIds(tenantId: string, limit: number): Promise<string[]>;
}
