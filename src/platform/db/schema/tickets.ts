/**
 * Ticket-to-FAQ pipeline (seed 002 §5.2 Enhancement 3, §8.2): signed webhook intake → Queue →
 * decision → variant (direct) or staging (human review). Times are epoch milliseconds.
 */
import { sql } from "drizzle-orm";
import { index, integer, real, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { tenants } from "./core";

/**
 * Per-tenant webhook signing secrets: the native `X-Recall-*` ones (`connection_id` null) and the
 * helpdesk connections' (src/features/tickets/secrets.ts). HMAC needs the secret itself, so it is stored
 * encrypted (AES-GCM under the SECRETS_KEK binding, `key_id` names the key); `secret` holds only
 * a legacy plaintext row until it is sealed. A rotation gives the old secret an `expires_at`
 * (the overlap window); a secret with `expires_at` in the past no longer verifies and is pruned.
 */
export const webhookSecrets = sqliteTable(
  "webhook_secrets",
  {
    id: text("id").primaryKey(),
    tenantId: text("tenant_id")
      .notNull()
      .references(() => tenants.id),
    /** Legacy plaintext (rows from before 0010); null once sealed. */
    secret: text("secret"),
    /** base64(iv ‖ AES-GCM ciphertext ‖ tag); the additional data binds it to tenant and row id. */
    ciphertext: text("ciphertext"),
    /** Which key of SECRETS_KEK sealed `ciphertext`. */
    keyId: text("key_id"),
    /** The helpdesk connection this secret verifies; null = the native X-Recall webhook. */
    connectionId: text("connection_id"),
    /** The first characters, so a person can tell secrets apart in a listing ("" for secrets a provider supplied). */
    secretPrefix: text("secret_prefix").notNull(),
    createdAt: integer("created_at").notNull(),
    /** null = active without end; set by a rotation (end of the overlap) or a revocation (now). */
    expiresAt: integer("expires_at"),
  },
  (t) => [index("webhook_secrets_tenant_idx").on(t.tenantId, t.createdAt), index("webhook_secrets_connection_idx").on(t.connectionId)],
);

export const ticketStatuses = ["received", "decided", "dead_letter"] as const;
export type TicketStatus = (typeof ticketStatuses)[number];
export const ticketActions = ["SKIP", "ADD_VARIANT", "MERGE", "NEW"] as const;

/** One row per (tenant, ticket id): the idempotency key of the webhook and the decision's record. */
export const tickets = sqliteTable(
  "tickets",
  {
    seq: integer("seq").primaryKey({ autoIncrement: true }),
    id: text("id").notNull(),
    tenantId: text("tenant_id")
      .notNull()
      .references(() => tenants.id),
    /** The sender's ticket id (idempotency key within the tenant). */
    ticketId: text("ticket_id").notNull(),
    subject: text("subject").notNull(),
    question: text("question").notNull(),
    answer: text("answer").notNull(),
    tags: text("tags", { mode: "json" })
      .$type<string[]>()
      .notNull()
      .default(sql`'[]'`),
    resolvedAt: integer("resolved_at").notNull(),
    source: text("source"),
    status: text("status", { enum: ticketStatuses }).notNull().default("received"),
    receivedAt: integer("received_at").notNull(),
    /** The cleaned question the decision compared (src/core/text/ticket-clean.ts). */
    cleanedQuestion: text("cleaned_question"),
    action: text("action", { enum: ticketActions }),
    /** Calibrated similarity (or lexical, see similarity_method) to the closest FAQ question or variant. */
    similarity: real("similarity"),
    similarityMethod: text("similarity_method", { enum: ["calibrated", "raw", "lexical"] }),
    matchedFaqId: text("matched_faq_id"),
    matchedVariantId: text("matched_variant_id"),
    judge: text("judge"),
    rationale: text("rationale"),
    /** The variant inserted (ADD_VARIANT, or MERGE on approval), the staging item (MERGE/NEW). */
    variantId: text("variant_id"),
    stagingId: text("staging_id"),
    decidedAt: integer("decided_at"),
    attempts: integer("attempts").notNull().default(0),
    lastError: text("last_error"),
    /** A consumer holds the ticket until then (two deliveries never decide at once). */
    leaseUntil: integer("lease_until"),
  },
  (t) => [
    uniqueIndex("tickets_id_idx").on(t.id),
    uniqueIndex("tickets_tenant_ticket_idx").on(t.tenantId, t.ticketId),
    index("tickets_status_idx").on(t.tenantId, t.status, t.seq),
  ],
);

export const stagingStatuses = ["pending", "approved", "rejected"] as const;
export type StagingStatus = (typeof stagingStatuses)[number];

/** MERGE and NEW proposals waiting for a person (seed §6.1 staging table); one per ticket. */
export const stagingItems = sqliteTable(
  "staging_items",
  {
    seq: integer("seq").primaryKey({ autoIncrement: true }),
    id: text("id").notNull(),
    tenantId: text("tenant_id")
      .notNull()
      .references(() => tenants.id),
    /** tickets.id (internal). */
    ticketRowId: text("ticket_row_id").notNull(),
    action: text("action", { enum: ["MERGE", "NEW"] }).notNull(),
    /** NEW: the proposed FAQ; MERGE: the FAQ's question and the suggested merged answer. */
    question: text("question").notNull(),
    answer: text("answer").notNull(),
    tags: text("tags", { mode: "json" })
      .$type<string[]>()
      .notNull()
      .default(sql`'[]'`),
    /** MERGE: the FAQ to update. */
    faqId: text("faq_id"),
    /** MERGE: the ticket's question, added as a variant on approval. */
    variantText: text("variant_text"),
    similarity: real("similarity"),
    judge: text("judge"),
    rationale: text("rationale"),
    status: text("status", { enum: stagingStatuses }).notNull().default("pending"),
    createdAt: integer("created_at").notNull(),
    reviewedBy: text("reviewed_by"),
    reviewedAt: integer("reviewed_at"),
    rejectReason: text("reject_reason"),
    /** The FAQ created (NEW) or updated (MERGE) on approval. */
    resultFaqId: text("result_faq_id"),
  },
  (t) => [
    uniqueIndex("staging_items_id_idx").on(t.id),
    uniqueIndex("staging_items_ticket_idx").on(t.ticketRowId),
    index("staging_items_status_idx").on(t.tenantId, t.status, t.seq),
  ],
);
