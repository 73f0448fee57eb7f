/**
 * The TICKETS queue consumer: one message per ticket ({ tenantId, ticketRowId }), each acked only
 * after its outcome is stored, so a crash mid-batch loses nothing (the unacked rest is redelivered).
 *
 * Per ticket: claim it (a lease, so two deliveries never decide at once) → clean the question
 * (src/text/ticket-clean.ts) → best match over canonical questions and variants (match.ts) → band
 * (decide.ts) → the judge where the band needs one → act and record:
 * - SKIP: recorded only;
 * - ADD_VARIANT: the cleaned question becomes a production variant of the matched FAQ (source
 *   `pipeline`, `sourceTicketId`), through the FAQ module;
 * - MERGE / NEW: a staging item for review (MERGE carries the suggested merged answer and the variant).
 * The decision, staging row and ticket update are one D1 batch.
 *
 * Failures: the embedder or vector index down (PipelineUnavailable) and any other error are retried
 * with exponential backoff (RETRY_BASE_DELAY_SECONDS · 2^(attempt−1), at most RETRY_MAX_DELAY_SECONDS);
 * at attempt TICKET_MAX_ATTEMPTS the ticket is stored as `dead_letter` with the last error and the
 * message acked (admins list them: GET /v1/tickets?status=dead_letter, and can requeue them).
 */
import { faqStore } from "../faqs/select";
import { newId } from "../ids";
import type { AnswerVerdict, MergeVerdict } from "../judge/port";
import { errorCodeOf, errorFields } from "../log";
import type { Services } from "../services";
import { cleanTicketQuestion } from "../text/ticket-clean";
import { decideAction, similarityBand, type TicketAction } from "./decide";
import { findBestMatch, PipelineUnavailable, type TicketMatch } from "./match";
import { getTicket, type TicketRow } from "./store";

/** Attempts (deliveries) before a ticket is dead-lettered; below wrangler's max_retries + 1 so we, not the platform, decide. */
export const TICKET_MAX_ATTEMPTS = 5;
export const RETRY_BASE_DELAY_SECONDS = 10;
export const RETRY_MAX_DELAY_SECONDS = 300;
/** How long a consumer holds a ticket it is deciding. */
export const TICKET_LEASE_MS = 60_000;
/** Who the FAQ module records as the author of pipeline changes. */
export const PIPELINE_ACTOR = "pipeline";

export interface TicketMessage {
  tenantId: string;
  ticketRowId: string;
}

export function isTicketMessage(body: unknown): body is TicketMessage {
  const b = body as Partial<TicketMessage> | null;
  return typeof b === "object" && b !== null && typeof b.tenantId === "string" && typeof b.ticketRowId === "string";
}

export function retryDelaySeconds(attempt: number): number {
  return Math.min(RETRY_MAX_DELAY_SECONDS, RETRY_BASE_DELAY_SECONDS * 2 ** Math.max(0, attempt - 1));
}

export type ProcessOutcome =
  { kind: "decided"; action: TicketAction } | { kind: "already"; status: string } | { kind: "missing" } | { kind: "busy" };

export async function consumeTickets(batch: MessageBatch<unknown>, services: Services): Promise<void> {
  const batchLog = services.log.with({ job: "queue", queue: batch.queue });
  for (const message of batch.messages) {
    const started = performance.now();
    const body = message.body;
    if (!isTicketMessage(body)) {
      // Nothing to store it against: log and drop (it cannot come from our producer).
      batchLog.warn("ticket_message_malformed", { messageId: message.id });
      message.ack();
      continue;
    }
    const log = batchLog.with({ messageId: message.id, tenant: body.tenantId, ticketRowId: body.ticketRowId, attempt: message.attempts });
    const scoped: Services = { ...services, log };
    try {
      const outcome = await processTicket(scoped, body);
      if (outcome.kind === "busy") message.retry({ delaySeconds: retryDelaySeconds(message.attempts) });
      else message.ack();
      log.info("ticket_processed", { ...outcome, durationMs: elapsed(started) });
    } catch (error) {
      const reason = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
      const failure = { durationMs: elapsed(started), errorCode: errorCodeOf(error), ...errorFields(error) };
      if (message.attempts >= TICKET_MAX_ATTEMPTS) {
        try {
          await deadLetter(scoped, body, message.attempts, reason);
          message.ack();
          log.error("ticket_dead_lettered", failure);
        } catch (storeError) {
          // Not even the dead-letter state could be stored: leave it to the platform's DLQ.
          message.retry({ delaySeconds: RETRY_MAX_DELAY_SECONDS });
          log.error("ticket_dead_letter_failed", { ...failure, storeError: errorFields(storeError).error });
        }
        continue;
      }
      await recordFailure(scoped, body, reason).catch(() => {});
      message.retry({ delaySeconds: retryDelaySeconds(message.attempts) });
      log.warn(error instanceof PipelineUnavailable ? "ticket_retry_unavailable" : "ticket_retry_error", failure);
    }
  }
}

const elapsed = (since: number) => Math.round((performance.now() - since) * 10) / 10;

/** Decides one ticket and stores the outcome. Throws when it must be retried. */
export async function processTicket(services: Services, { tenantId, ticketRowId }: TicketMessage): Promise<ProcessOutcome> {
  const { db, clock, judge } = services;
  const now = clock.now();
  const claimed = await db
    .prepare(
      `UPDATE tickets SET lease_until = ?, attempts = attempts + 1
       WHERE id = ? AND tenant_id = ? AND status = 'received' AND (lease_until IS NULL OR lease_until < ?) RETURNING *`,
    )
    .bind(now + TICKET_LEASE_MS, ticketRowId, tenantId, now)
    .first<TicketRow>();
  if (!claimed) {
    const row = await getTicket(db, tenantId, ticketRowId);
    if (!row) return { kind: "missing" };
    return row.status === "received" ? { kind: "busy" } : { kind: "already", status: row.status };
  }
  try {
    const question = cleanTicketQuestion(claimed.subject, claimed.question);
    const match = await findBestMatch(services, tenantId, question);
    const band = similarityBand(match?.similarity ?? null);
    const forJudge = { question, answer: claimed.answer };
    let answerVerdict: AnswerVerdict | null = null;
    let mergeVerdict: MergeVerdict | null = null;
    if (match && band === "same_question") answerVerdict = await judge.answerAddsInformation(forJudge, match.faq);
    if (match && band === "related") mergeVerdict = await judge.mergeOrNew(forJudge, match.faq, match.similarity);
    const action = decideAction(band, {
      ...(answerVerdict ? { addsInformation: answerVerdict.addsInformation } : {}),
      ...(mergeVerdict ? { mergeOrNew: mergeVerdict.action } : {}),
    });
    const verdict = answerVerdict ?? mergeVerdict;
    const bandNote = describe(match, band);
    const decision: Decision = {
      action,
      question,
      match,
      judge: verdict?.judge ?? null,
      rationale: verdict ? `${bandNote}; ${verdict.rationale}` : bandNote,
    };
    if (action === "ADD_VARIANT") {
      const added = await faqStore(services).addVariant(tenantId, match!.faq.id, PIPELINE_ACTOR, {
        variantText: question,
        source: "pipeline",
        sourceTicketId: claimed.ticket_id,
      });
      if (added.ok) decision.variantId = added.value.id;
      else decision.rationale += `; variant not added (${added.error})`;
    }
    if (action === "MERGE" || action === "NEW") {
      const faq = match?.faq;
      decision.staging =
        action === "MERGE" && faq
          ? {
              id: newId("stg"),
              question: faq.question,
              answer: answerVerdict?.suggestedAnswer ?? `${faq.answer.trim()}\n\n${claimed.answer.trim()}`,
              tags: faq.tags,
              faqId: faq.id,
              variantText: question,
            }
          : { id: newId("stg"), question, answer: claimed.answer, tags: claimed.tags, faqId: null, variantText: null };
    }
    await storeDecision(services, claimed, decision);
    return { kind: "decided", action };
  } catch (error) {
    // Give the lease back so the retry can claim it at once.
    await db
      .prepare("UPDATE tickets SET lease_until = NULL WHERE id = ?")
      .bind(ticketRowId)
      .run()
      .catch(() => {});
    throw error;
  }
}

interface Decision {
  action: TicketAction;
  question: string;
  match: TicketMatch | null;
  judge: string | null;
  rationale: string;
  variantId?: string;
  staging?: { id: string; question: string; answer: string; tags: string; faqId: string | null; variantText: string | null };
}

function describe(match: TicketMatch | null, band: string): string {
  if (!match) return "no similar FAQ";
  const what = match.variant ? `variant "${match.variant.text}"` : `question "${match.faq.question}"`;
  const how = match.method === "lexical" ? "lexical similarity (text the embedder cannot embed)" : `${match.method} similarity`;
  return `${how} ${match.similarity.toFixed(3)} to ${what} (band ${band})`;
}

async function storeDecision(services: Services, ticket: TicketRow, d: Decision): Promise<void> {
  const { db, clock } = services;
  const now = clock.now();
  const statements: D1PreparedStatement[] = [];
  const s = d.staging;
  if (s) {
    statements.push(
      db
        .prepare(
          `INSERT INTO staging_items (id, tenant_id, ticket_row_id, action, question, answer, tags, faq_id, variant_text, similarity, judge, rationale, status, created_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'pending', ?) ON CONFLICT (ticket_row_id) DO NOTHING`,
        )
        .bind(
          s.id,
          ticket.tenant_id,
          ticket.id,
          d.action,
          s.question,
          s.answer,
          s.tags,
          s.faqId,
          s.variantText,
          d.match?.similarity ?? null,
          d.judge,
          d.rationale,
          now,
        ),
    );
  }
  statements.push(
    db
      .prepare(
        `UPDATE tickets SET status = 'decided', cleaned_question = ?, action = ?, similarity = ?, similarity_method = ?, matched_faq_id = ?,
           matched_variant_id = ?, judge = ?, rationale = ?, variant_id = ?,
           staging_id = (SELECT id FROM staging_items WHERE ticket_row_id = ?), decided_at = ?, lease_until = NULL, last_error = NULL
         WHERE id = ? AND status = 'received'`,
      )
      .bind(
        d.question,
        d.action,
        d.match?.similarity ?? null,
        d.match?.method ?? null,
        d.match?.faq.id ?? null,
        d.match?.variant?.id ?? null,
        d.judge,
        d.rationale,
        d.variantId ?? null,
        ticket.id,
        now,
        ticket.id,
      ),
  );
  await db.batch(statements);
}

async function recordFailure(services: Services, { tenantId, ticketRowId }: TicketMessage, reason: string): Promise<void> {
  await services.db
    .prepare("UPDATE tickets SET last_error = ? WHERE id = ? AND tenant_id = ?")
    .bind(reason.slice(0, 1000), ticketRowId, tenantId)
    .run();
}

async function deadLetter(services: Services, { tenantId, ticketRowId }: TicketMessage, attempts: number, reason: string): Promise<void> {
  await services.db
    .prepare(
      "UPDATE tickets SET status = 'dead_letter', last_error = ?, attempts = MAX(attempts, ?), lease_until = NULL WHERE id = ? AND tenant_id = ? AND status = 'received'",
    )
    .bind(reason.slice(0, 1000), attempts, ticketRowId, tenantId)
    .run();
}
