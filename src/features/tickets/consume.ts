/**
 * The TICKETS queue consumer: one message per ticket ({ tenantId, ticketRowId }), each acked only
 * after its outcome is stored, so a crash mid-batch loses nothing (the unacked rest is redelivered).
 *
 * Per ticket: claim it (a lease, so two deliveries never decide at once) → clean the question
 * (src/core/text/ticket-clean.ts) → best match over canonical questions and variants (match.ts) → band
 * (decide.ts) → the judge where the band needs one → act and record:
 * - SKIP: recorded only;
 * - ADD_VARIANT: the cleaned question becomes a production variant of the matched FAQ (source
 *   `pipeline`, `sourceTicketId`), through the FAQ module;
 * - MERGE / NEW: a staging item for review (MERGE carries the suggested merged answer and the variant).
 * The decision, staging row and ticket update are one write (a D1 batch, a Postgres transaction).
 * A message that carries its ticket (intake while the pipeline store was down) inserts it first,
 * idempotently, under the id intake answered.
 *
 * Failures: the embedder or vector index down (PipelineUnavailable) and any other error are retried
 * with exponential backoff (RETRY_BASE_DELAY_SECONDS · 2^(attempt−1), at most RETRY_MAX_DELAY_SECONDS);
 * at attempt TICKET_MAX_ATTEMPTS the ticket is stored as `dead_letter` with the last error and the
 * message acked (admins list them: GET /v1/tickets?status=dead_letter, and can requeue them).
 */
import { onTenantScale } from "../calibration/in-force";
import { z } from "zod";
import { faqStore } from "../faqs/select";
import { tagsSchema } from "../faqs/json-columns";
import { newId } from "../../core/base/ids";
import type { SameQuestionDecision } from "../../core/decisions/same-question";
import { guardedJudge } from "../../platform/judge/guarded";
import type { AnswerVerdict, MergeVerdict, PairLeftovers } from "../../platform/judge/port";
import { errorCodeOf, errorFields } from "../../platform/observe/log";
import { type Services, servicesIn } from "../../platform/ports/services";
import { placementOf } from "../placement/directory";
import { PRINCIPAL_CACHE_MS } from "../auth/keys";
import type { PersonalKind } from "../../core/text/pii/kinds";
import { decideAction, type TicketAction } from "./decide";
import { assess, PipelineUnavailable, type TicketMatch } from "./match";
import type { TicketMessage } from "../../platform/ports/ticket-message";
import type { TicketDecision } from "./port";
import { pipelineStore } from "./select";
import { cleanTicketKeepingVocabulary } from "./vocabulary";

/** Attempts (deliveries) before a ticket is dead-lettered; below wrangler's max_retries + 1 so we, not the platform, decide. */
export const TICKET_MAX_ATTEMPTS = 5;
export const RETRY_BASE_DELAY_SECONDS = 10;
export const RETRY_MAX_DELAY_SECONDS = 300;
/** How long a consumer holds a ticket it is deciding. */
export const TICKET_LEASE_MS = 60_000;
/** Who the FAQ module records as the author of pipeline changes. */
export const PIPELINE_ACTOR = "pipeline";

const carriedTicket = z.object({
  ticketId: z.string(),
  subject: z.string(),
  question: z.string(),
  answer: z.string(),
  tags: tagsSchema,
  resolvedAt: z.number(),
  source: z.string().optional(),
  receivedAt: z.number(),
});
const ticketMessage = z.object({ tenantId: z.string(), ticketRowId: z.string(), ticket: carriedTicket.optional() });

export function isTicketMessage(body: unknown): body is TicketMessage {
  return ticketMessage.safeParse(body).success;
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
    let scoped: Services = { ...services, log };
    try {
      const placement = await placementOf(services.home, body.tenantId, services.clock.now());
      if (placement.writesFrozen) {
        // Its rows are being copied to another database: decide it once the copy is in use.
        message.retry({ delaySeconds: MOVING_RETRY_DELAY_S });
        log.info("ticket_waits_for_move");
        continue;
      }
      scoped = servicesIn(scoped, placement.database);
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

/** A ticket of a tenant being moved waits this long: the move's copy is in use within the key cache's time of its end. */
const MOVING_RETRY_DELAY_S = PRINCIPAL_CACHE_MS / 1000;

const elapsed = (since: number) => Math.round((performance.now() - since) * 10) / 10;

/** Decides one ticket and stores the outcome. Throws when it must be retried. */
export async function processTicket(unscaled: Services, message: TicketMessage): Promise<ProcessOutcome> {
  const services = await onTenantScale(unscaled, message.tenantId);
  const { clock } = services;
  const judge = guardedJudge(services.judge, { cache: services.cache, tenantId: message.tenantId, clock });
  const store = pipelineStore(services);
  const { tenantId, ticket: carried } = message;
  let ticketRowId = message.ticketRowId;
  if (carried) {
    const { receivedAt, ...input } = carried;
    // A ticket the tenant had already sent keeps its first row: decide (or skip) that one.
    ticketRowId = (await store.insertTicket(tenantId, input, receivedAt, ticketRowId)).row.id;
  }
  const now = clock.now();
  const claimed = await store.claimTicket(tenantId, ticketRowId, now, now + TICKET_LEASE_MS);
  if (!claimed) {
    const row = await store.getTicket(tenantId, ticketRowId);
    if (!row) return { kind: "missing" };
    return row.status === "received" ? { kind: "busy" } : { kind: "already", status: row.status };
  }
  try {
    // The question and the agent's answer without who asked or answered: either may reach FAQ text other customers read.
    const cleaned = await cleanTicketKeepingVocabulary(services, tenantId, claimed);
    const { question } = cleaned;
    const { match, band, sameQuestion, same } = await assess(services, tenantId, question);
    const forJudge = { question, answer: cleaned.answer };
    let answerVerdict: AnswerVerdict | null = null;
    let mergeVerdict: MergeVerdict | null = null;
    // The answer's judge is asked where its verdict matters: ADD_VARIANT or MERGE, and the merged answer a person reviews.
    const highBand = band === "same_question" || band === "duplicate";
    if (match && (same === "sure" || (same === "unsure" && highBand)))
      answerVerdict = await judge.answerAddsInformation(forJudge, match.faq);
    if (match && band === "related" && same === "unsure")
      mergeVerdict = await judge.mergeOrNew(forJudge, match.faq, match.similarity, leftoversOf(sameQuestion));
    const action = decideAction(band, same, {
      ...(answerVerdict ? { addsInformation: answerVerdict.addsInformation } : {}),
      ...(mergeVerdict ? { mergeOrNew: mergeVerdict.action } : {}),
    });
    const verdict = answerVerdict ?? mergeVerdict;
    // The same-question verdict first: it is what a reviewer of a staged item needs to read.
    const bandNote = `${flaggedNote(cleaned.flagged)}${sameQuestion ? `same-question decision: ${sameQuestion.relation} (${sameQuestion.reason}); ` : ""}${describe(match, band)}`;
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
        sourceTicketId: claimed.ticketId,
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
              action,
              question: faq.question,
              answer:
                answerVerdict && !answerVerdict.addsInformation
                  ? faq.answer
                  : (answerVerdict?.suggestedAnswer ?? `${faq.answer.trim()}\n\n${cleaned.answer}`),
              tags: tagsSchema.parse(JSON.parse(faq.tags)),
              faqId: faq.id,
              variantText: question,
            }
          : { id: newId("stg"), action: "NEW", question, answer: cleaned.answer, tags: claimed.tags, faqId: null, variantText: null };
    }
    await store.storeDecision(claimed, toStoredDecision(decision), clock.now());
    return { kind: "decided", action };
  } catch (error) {
    // Give the lease back so the retry can claim it at once.
    await store.releaseTicket(tenantId, ticketRowId).catch(() => {});
    throw error;
  }
}

/** A reviewer must hear of a secret that reached the helpdesk, though it was removed: it should be revoked. */
function flaggedNote(flagged: readonly PersonalKind[]): string {
  const named = {
    credential: "a password or key",
    card: "a payment card",
    iban: "a bank account number",
    national_id: "a national ID number",
  };
  const found = flagged.flatMap((k) => (k in named ? [named[k as keyof typeof named]] : []));
  return found.length ? `the ticket carried ${found.join(", ")} (removed; ask the customer to change it); ` : "";
}

/** What the same-question decision left unmatched, for the judge to read (a = the ticket's question, b = the FAQ's). */
function leftoversOf(decision: SameQuestionDecision | null): PairLeftovers | undefined {
  if (!decision) return undefined;
  const { onlyA, onlyB, contrasts } = decision.evidence;
  return { onlyTicket: onlyA, onlyFaq: onlyB, differs: contrasts.map((c) => c.detail) };
}

interface Decision {
  action: TicketAction;
  question: string;
  match: TicketMatch | null;
  judge: string | null;
  rationale: string;
  variantId?: string;
  staging?: TicketDecision["staging"];
}

function describe(match: TicketMatch | null, band: string): string {
  if (!match) return "no similar FAQ";
  const what = match.variant ? `variant "${match.variant.text}"` : `question "${match.faq.question}"`;
  const how = match.method === "lexical" ? "lexical similarity (text the embedder cannot embed)" : `${match.method} similarity`;
  return `${how} ${match.similarity.toFixed(3)} to ${what} (band ${band})`;
}

function toStoredDecision(d: Decision): TicketDecision {
  return {
    action: d.action,
    cleanedQuestion: d.question,
    similarity: d.match?.similarity ?? null,
    similarityMethod: d.match?.method ?? null,
    matchedFaqId: d.match?.faq.id ?? null,
    matchedVariantId: d.match?.variant?.id ?? null,
    judge: d.judge,
    rationale: d.rationale,
    variantId: d.variantId ?? null,
    staging: d.staging ?? null,
  };
}

async function recordFailure(services: Services, { tenantId, ticketRowId }: TicketMessage, reason: string): Promise<void> {
  await pipelineStore(services).recordFailure(tenantId, ticketRowId, reason);
}

async function deadLetter(services: Services, { tenantId, ticketRowId }: TicketMessage, attempts: number, reason: string): Promise<void> {
  await pipelineStore(services).deadLetter(tenantId, ticketRowId, attempts, reason);
}
