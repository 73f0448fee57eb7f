/**
 * Idempotency keys (issue 19): the first answer to a create sent with an `Idempotency-Key`, kept
 * IDEMPOTENCY_TTL_MS per tenant so a client's retry is answered from here instead of creating again.
 * A row is reserved ('pending') before the handler runs, so concurrent first requests create one row.
 */
import { index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";

export const idempotencyStates = ["pending", "done"] as const;
export type IdempotencyState = (typeof idempotencyStates)[number];

export const idempotencyKeys = sqliteTable(
  "idempotency_keys",
  {
    tenantId: text("tenant_id").notNull(),
    idempotencyKey: text("idempotency_key").notNull(),
    /** SHA-256 (hex) of method, path and body bytes: the same key with another request is refused. */
    requestHash: text("request_hash").notNull(),
    state: text("state", { enum: idempotencyStates }).notNull(),
    /** A pending reservation older than this (ms) was abandoned by a request that died; another may take it. */
    lockedUntil: integer("locked_until").notNull(),
    status: integer("status"),
    contentType: text("content_type"),
    body: text("body"),
    createdAt: integer("created_at").notNull(),
    expiresAt: integer("expires_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.idempotencyKey] }), index("idempotency_keys_expiry_idx").on(t.expiresAt)],
);
