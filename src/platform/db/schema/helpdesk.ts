/**
 * Helpdesk connections (issue 17): a tenant points Zendesk, Intercom, Help Scout, Freshdesk, Front
 * or a Standard Webhooks sender at `/v1/webhooks/tickets/<provider>/<connection id>`. Each
 * connection's secrets live in `webhook_secrets` (connection_id); every delivery is recorded once
 * by its delivery key, so a redelivery is answered from the record instead of processed again.
 */
import { index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { tenants } from "./core";

export const helpdeskProviders = ["standard", "zendesk", "intercom", "helpscout", "freshdesk", "front"] as const;
export type HelpdeskProvider = (typeof helpdeskProviders)[number];

export const helpdeskConnections = sqliteTable(
  "helpdesk_connections",
  {
    id: text("id").primaryKey(),
    tenantId: text("tenant_id")
      .notNull()
      .references(() => tenants.id),
    provider: text("provider", { enum: helpdeskProviders }).notNull(),
    name: text("name").notNull(),
    createdAt: integer("created_at").notNull(),
    /** Set by DELETE: the connection and its secrets stop verifying. */
    revokedAt: integer("revoked_at"),
  },
  (t) => [index("helpdesk_connections_tenant_idx").on(t.tenantId, t.createdAt)],
);

export const deliveryOutcomes = ["queued", "duplicate_ticket", "gathered", "skipped"] as const;
export type DeliveryOutcome = (typeof deliveryOutcomes)[number];

export const webhookDeliveries = sqliteTable(
  "webhook_deliveries",
  {
    connectionId: text("connection_id").notNull(),
    /** The provider's delivery/event id (webhook-id, Intercom notif_…, Zendesk invocation id) or sha256 of the body. */
    deliveryKey: text("delivery_key").notNull(),
    tenantId: text("tenant_id").notNull(),
    receivedAt: integer("received_at").notNull(),
    outcome: text("outcome", { enum: deliveryOutcomes }).notNull(),
    /** Why a delivery was skipped (not solved, no public answer, …). */
    reason: text("reason"),
    /** The provider's ticket/conversation id, when the payload named one. */
    externalId: text("external_id"),
    /** tickets.id of the ticket it stored (queued) or matched (duplicate_ticket). */
    ticketRowId: text("ticket_row_id"),
  },
  (t) => [primaryKey({ columns: [t.connectionId, t.deliveryKey] }), index("webhook_deliveries_tenant_idx").on(t.tenantId, t.receivedAt)],
);

/**
 * The parts of a conversation gathered from events that each carry one message (Front's
 * inbound/outbound events, Zendesk's ticket.comment_added), until the solved/archived event turns
 * them into a ticket. Only the first customer message and the last public agent reply are kept.
 */
export const helpdeskThreads = sqliteTable(
  "helpdesk_threads",
  {
    connectionId: text("connection_id").notNull(),
    externalId: text("external_id").notNull(),
    tenantId: text("tenant_id").notNull(),
    subject: text("subject").notNull().default(""),
    question: text("question"),
    answer: text("answer"),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.connectionId, t.externalId] }), index("helpdesk_threads_updated_idx").on(t.updatedAt)],
);
