import { describe } from "../openapi/describe";
import { z } from "zod";
import { nextCursorSchema } from "../pagination";
import { stagingStatuses, ticketActions, ticketStatuses } from "../../platform/db/schema";
import { isoTime, nullableString, obj, tags } from "./common";
import { SameQuestionEvidence } from "./similarity";
import { PERSONAL_KINDS } from "../../core/text/pii/kinds";

export const Ticket = obj({
  id: z.string(),
  ticketId: z.string(),
  status: z.enum(ticketStatuses),
  subject: z.string(),
  question: z.string(),
  answer: z.string(),
  tags,
  source: nullableString,
  resolvedAt: isoTime,
  receivedAt: isoTime,
  decision: obj({
    action: z.enum(ticketActions),
    cleanedQuestion: nullableString,
    similarity: z.number().nullable(),
    similarityMethod: z.enum(["calibrated", "raw", "lexical"]).nullable(),
    matchedFaqId: nullableString,
    matchedVariantId: nullableString,
    judge: nullableString,
    rationale: nullableString,
    variantId: nullableString,
    stagingId: nullableString,
    decidedAt: isoTime.nullable(),
  }).nullable(),
  attempts: z.number().int(),
  lastError: nullableString,
}).meta({ id: "Ticket" });

/** One ticket with what cleaning took out of it: the review desk marks each removal and may restore it. */
export const TicketWithCleaning = Ticket.extend({
  cleaning: obj({
    question: z
      .string()
      .describe(
        "The question as the pipeline compares and stages it: personal details replaced by their kind ([phone]), greetings and signatures gone",
      ),
    answer: z.string().describe("The agent's answer as it may be proposed for an FAQ, cleaned the same way"),
    removals: z
      .array(obj({ kind: z.enum(PERSONAL_KINDS), text: z.string() }))
      .describe(
        "What cleaning removed from the question and answer before anything was staged, by kind, with the text as received (this ticket row is the only place it is kept)",
      ),
    flagged: z
      .array(z.enum(PERSONAL_KINDS))
      .describe(
        "Kinds that need more than removal: a password, key, card, bank account or ID number reached the helpdesk and should be changed",
      ),
  }),
}).meta({ id: "TicketWithCleaning" });

export const DeliveredTicket = Ticket.extend({
  duplicate: z.boolean().describe("true: this ticket id was delivered before; nothing was done"),
});
const RejectedTicket = obj({
  index: z.number().int().describe("its place in `tickets`, from 0"),
  ticketId: nullableString.describe("its ticketId, when it had one that is text"),
  message: z.string(),
  details: z.array(obj({ path: z.string(), message: z.string() })).describe("each reason, with the field's path in the delivery"),
});
const DeliveredBatch = obj({
  tickets: z.array(DeliveredTicket).describe("the tickets taken, in delivery order"),
  rejected: z.array(RejectedTicket).describe("the tickets refused, each with its reasons; the others were taken all the same"),
});
export const Delivery = z.union([DeliveredTicket, DeliveredBatch]);
export const TicketList = obj({ tickets: z.array(Ticket), nextCursor: nextCursorSchema });

export const StagingItem = obj({
  id: z.string(),
  action: z.enum(["MERGE", "NEW"]),
  status: z.enum(stagingStatuses),
  question: z.string(),
  answer: z.string(),
  tags,
  faqId: nullableString,
  variantText: nullableString,
  similarity: z.number().nullable(),
  judge: nullableString,
  rationale: nullableString,
  ticket: obj({ id: z.string(), ticketId: nullableString }),
  createdAt: isoTime,
  reviewedBy: nullableString,
  reviewedAt: isoTime.nullable(),
  rejectReason: nullableString,
  resultFaqId: nullableString,
}).meta({ id: "StagingItem" });
export const StagingList = obj({
  items: z.array(StagingItem),
  nextCursor: nextCursorSchema,
  counts: obj({ pending: z.number().int(), approved: z.number().int(), rejected: z.number().int() }).describe(
    "the tenant's items in each status",
  ),
});

export const StagingDecision = obj({
  stagingId: z.string(),
  question: z.string().describe("what was compared: the ticket's cleaned question"),
  staged: obj({ action: z.enum(["MERGE", "NEW"]), faqId: nullableString, similarity: z.number().nullable(), stagedAt: isoTime }),
  match: obj({
    faqId: z.string(),
    question: z.string(),
    variant: obj({ id: z.string(), text: z.string() })
      .nullable()
      .describe("the variant that matched best; null when the FAQ's question did"),
    similarity: z.number().describe("calibrated (lexical for text the embedder cannot embed)"),
    method: z.enum(["calibrated", "raw", "lexical"]),
    faqUpdatedAt: isoTime,
    changedSinceStaged: z.boolean().describe("the FAQ was created or changed after the item was staged"),
  })
    .nullable()
    .describe("the closest FAQ question or variant now; null when no FAQ came close"),
  band: z.enum(["duplicate", "same_question", "related", "new"]),
  sameQuestion: obj({
    relation: z.enum(["same", "related", "different"]),
    confidence: z.number(),
    reason: z.string(),
    evidence: SameQuestionEvidence,
  })
    .nullable()
    .describe("the same-question decision on the pair (docs/design/same-question.md)"),
  actions: z.array(z.enum(ticketActions)).describe("what the pipeline would do now; two when its judge (not asked here) would choose"),
  stale: z.boolean().describe("what was staged is not what the pipeline would do now"),
  duplicate: z
    .boolean()
    .describe(
      "an FAQ asks this question now (the pipeline would not propose NEW, and the same-question decision does not say different): approving a NEW item would duplicate it (the approve answers 409 DUPLICATE_FAQ)",
    ),
});

const count = z.number().int();
export const PipelineStats = obj({
  days: count,
  byAction: z.record(z.string(), count),
  byDay: z.array(z.record(z.string(), z.union([z.string(), count]))),
  tickets: z.record(z.string(), count),
  staging: z.array(obj({ action: z.string(), status: z.string(), count })),
  variantsPerFaq: obj({ faqs: count, variants: count, pipelineVariants: count, mean: z.number(), max: count }),
  duplicateCreation: obj({
    created: count,
    checked: count,
    likelyDuplicates: count.nullable(),
    rate: z.number().nullable(),
    threshold: z.number(),
    degraded: z.string().optional(),
  }),
  duplicates: obj({
    scanned: count.describe("live FAQs looked at: the newest 200"),
    checked: count.describe("of those, the ones whose question the embedder can embed"),
    likelyDuplicates: count
      .nullable()
      .describe("checked FAQs that another live FAQ asks the same question as (the same-question decision)"),
    rate: z.number().nullable(),
    pairs: z
      .array(
        obj({
          faqId: z.string(),
          question: z.string(),
          otherFaqId: z.string(),
          otherQuestion: z.string(),
          similarity: z.number().describe("calibrated"),
          reason: z.string().describe("the same-question decision's one line"),
        }),
      )
      .describe("most similar first, each pair once, at most 20"),
    degraded: z.string().optional(),
  }).describe("likely duplicates among all live FAQs, however they were made (by hand, import or the pipeline)"),
});

/** The example ticket of the API reference and docs/guides/ticket-pipeline.md (seed 002's pipeline input). */
const TICKET_EXAMPLE = {
  ticketId: "ZD-4711",
  subject: "Refund",
  question: "Hi team, how long until I get my refund? Thanks, Ann",
  answer: "Refunds reach your card within 5–10 business days.",
  tags: ["billing"],
  resolvedAt: "2026-11-01T10:00:00Z",
  source: "zendesk",
};

const signatureHeaders = [
  {
    in: "header",
    name: "X-Recall-Tenant",
    required: true,
    description: "The tenant id (returned when the secret is created).",
    schema: { type: "string", maxLength: 100 },
  },
  {
    in: "header",
    name: "X-Recall-Timestamp",
    required: true,
    description: "Unix seconds; must be within 5 minutes of the server's clock.",
    schema: { type: "string", pattern: "^\\d{1,12}$" },
  },
  {
    in: "header",
    name: "X-Recall-Signature",
    required: true,
    description:
      'v1=<hex HMAC-SHA256(secret, timestamp + "." + rawBody)>, compared in constant time with every valid secret of the tenant.',
    schema: { type: "string", pattern: "^v1=[0-9a-f]{64}$" },
  },
];

export const ticketDocs = {
  deliver: describe({
    tag: "Webhooks",
    summary: "Deliver resolved tickets",
    description:
      "Signed with the tenant's webhook secret instead of a Bearer key. One ticket, or `{ tickets: [...] }` with 1..100. Each new ticket is stored `received` and enqueued for the pipeline (202); a ticket id delivered before answers 200 with its first outcome (`duplicate: true`) and nothing else happens. A batch answers per ticket: a ticket that is invalid, has no question once greetings are removed, or repeats an earlier ticketId of the delivery is listed in `rejected` with its reasons, and the others are taken; only a batch with none to take is a 400. `resolvedAt` may be left out: the ticket was resolved when delivered. Any signature mismatch is the same 401.",
    responses: {
      202: DeliveredTicket.or(DeliveredBatch),
      200: { schema: Delivery, description: "Every ticket was delivered before" },
    },
    errors: {
      400: "bad JSON, non-UTF-8 bytes, a single ticket that is invalid or has no question text once greetings and signatures are removed, or a batch none of whose tickets can be taken",
      401: "unknown tenant, no secret, wrong secret, tampered body or stale timestamp: no hint which",
      413: "over 256 KiB",
      415: "not application/json",
      503: "the queue refused the message; nothing was stored: retry the delivery",
    },
    requestExample: TICKET_EXAMPLE,
    extra: { security: [{ webhookSignature: [] }], parameters: signatureHeaders },
  }),
  list: describe({
    tag: "Tickets",
    summary: "List tickets",
    description: "Newest first; `limit` 1..200 (50) per page, `cursor` = the previous page's `nextCursor`.",
    responses: { 200: TicketList },
  }),
  read: describe({
    tag: "Tickets",
    summary: "Read a ticket",
    description:
      "The ticket, what the pipeline decided, and what cleaning took out of it before staging (`cleaning`: personal details by kind, docs/guides/ticket-pipeline.md).",
    responses: { 200: TicketWithCleaning },
    errors: { 404: "no such ticket" },
  }),
  requeue: describe({
    tag: "Tickets",
    summary: "Requeue a dead-lettered ticket",
    description: "Admin. Back to `received` with its attempts reset, and enqueued.",
    responses: { 202: Ticket },
    errors: { 404: "no such ticket", 409: "only a dead-lettered ticket can be requeued" },
  }),
  stagingList: describe({
    tag: "Staging",
    summary: "List staging items",
    description:
      "MERGE and NEW proposals, by status (default pending), newest first; `limit` 1..200 (50) per page, `cursor` = the previous page's `nextCursor`.",
    responses: { 200: StagingList },
  }),
  stagingRead: describe({
    tag: "Staging",
    summary: "Read a staging item",
    description: "One proposal with its ticket.",
    responses: { 200: StagingItem },
    errors: { 404: "no such staging item" },
  }),
  stagingDecision: describe({
    tag: "Staging",
    summary: "Decide a proposal again",
    description:
      "The decision the pipeline would make now, against the knowledge base as it is (the item may have waited while FAQs were added), with the same-question decision's evidence: the closest FAQ question or variant, the similarity band, score, shared words and contrasts. The judge is not asked: `actions` names both outcomes where it would decide. `stale`: not what was staged; `duplicate`: an FAQ asks this question now.",
    responses: { 200: StagingDecision },
    errors: { 404: "no such staging item", 503: "the embedder or vector index is down: the item cannot be decided again" },
  }),
  approve: describe({
    tag: "Staging",
    summary: "Approve a proposal",
    description:
      "Admin. MERGE updates the FAQ's answer (and adds the variant); NEW creates the FAQ. `question`/`answer` override the proposal's. A NEW item is decided again first: when an FAQ now asks its question (what GET /v1/staging/{id}/decision calls `duplicate`), the answer is 409 DUPLICATE_FAQ with that FAQ in `duplicateOf`, and nothing changes; `allowDuplicate: true` creates the FAQ anyway.",
    responses: { 200: StagingItem },
    errors: {
      404: "no such staging item",
      409: "already reviewed, the FAQ it merges into is gone, or DUPLICATE_FAQ: a live FAQ asks this question now (`duplicateOf`)",
      503: "the embedder or vector index is down: a NEW item cannot be checked for a duplicate",
    },
    requestExample: { question: "Can I pay an invoice by bank transfer from abroad?", answer: "Yes: use the IBAN printed on the invoice." },
  }),
  reject: describe({
    tag: "Staging",
    summary: "Reject a proposal",
    description: "Admin. With a reason.",
    responses: { 200: StagingItem },
    errors: { 404: "no such staging item", 409: "already reviewed" },
  }),
  stats: describe({
    tag: "Pipeline",
    summary: "Pipeline statistics",
    description:
      "Decisions by action and UTC day, ticket and staging states, variants per FAQ, the duplicate-creation rate proxy (FAQs made by approving NEW items), and likely duplicates among all live FAQs (`duplicates`).",
    responses: { 200: PipelineStats },
  }),
  reclean: describe({
    tag: "Pipeline",
    summary: "Remove customers' details from FAQ text that tickets made",
    description:
      "Admin. One page of decided tickets (newest first): what cleaning removes from each ticket today is taken out, as placeholders, of the FAQ its approved item created or merged into (an FAQ update with a version to roll back to), of the variant it added, and of its pending staging item. Only the ticket's own removed pieces are touched; running it again changes nothing. Pass `next` back as `before` until it is null. The daily cron does the same for every tenant.",
    responses: {
      200: obj({
        tickets: z.number().int().describe("decided tickets looked at"),
        faqsUpdated: z.number().int(),
        variantsReplaced: z.number().int(),
        stagingRewritten: z.number().int(),
        next: z.number().int().nullable().describe("the next page's `before`; null when done"),
      }),
    },
    errors: { 403: "not an admin key" },
  }),
};
