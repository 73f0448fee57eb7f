import { describe } from "../openapi/describe";
import { z } from "zod";
import { nextCursorSchema } from "../pagination";
import { deliveryOutcomes, helpdeskProviders } from "../../platform/db/schema/helpdesk";
import { isoTime, nullableString, obj } from "./common";
import { Ticket } from "./tickets";

const provider = z.enum(helpdeskProviders);

const SecretInfo = obj({
  id: z.string(),
  prefix: z
    .string()
    .describe("A hint of a secret Recall generated: its marker (`whsec_`, `fdtok_`) and 6 characters; empty for one the helpdesk supplied"),
  createdAt: isoTime,
  expiresAt: isoTime.nullable().describe("null: valid until rotated or revoked"),
  active: z.boolean(),
});

export const Connection = obj({
  id: z.string(),
  provider,
  name: z.string(),
  webhookPath: z.string().describe("Where the helpdesk posts: /v1/webhooks/tickets/{provider}/{connectionId}"),
  status: z
    .enum(["active", "awaiting_secret", "revoked"])
    .describe("awaiting_secret: Zendesk, Intercom and Front supply their own secret; send it through /rotate"),
  createdAt: isoTime,
  revokedAt: isoTime.nullable(),
  secrets: z.array(SecretInfo).describe("Never a secret itself"),
});

export const CreatedConnection = Connection.extend({
  secret: nullableString.describe(
    "The secret Recall generated (Standard Webhooks, Help Scout, Freshdesk), shown this once; null when the helpdesk supplies it",
  ),
});

export const RotatedSecret = obj({
  id: z.string(),
  createdAt: isoTime,
  previousValidUntil: isoTime.nullable().describe("When the previous secrets stop verifying; null when there were none"),
  secret: nullableString.describe("The secret Recall generated, shown this once; null for one the helpdesk supplied"),
});

export const HelpdeskDelivery = obj({
  deliveryKey: z.string().describe("The provider's delivery id, or sha256 of the body when it has none"),
  receivedAt: isoTime,
  outcome: z.enum(deliveryOutcomes),
  reason: nullableString.describe("Why a delivery was skipped or is waiting"),
  externalId: nullableString.describe("The helpdesk's ticket or conversation id"),
  ticketRowId: nullableString.describe("The stored ticket (GET /v1/tickets/{id})"),
});

/** What the provider webhook answers (src/http/routes/helpdesk-webhooks.ts). */
const Queued = obj({ status: z.literal("queued"), ticket: Ticket });
const Gathered = obj({ status: z.literal("gathered"), externalId: z.string() });
const Skipped = obj({ status: z.literal("skipped"), reason: z.string(), externalId: nullableString });
const DuplicateTicket = obj({ status: z.literal("duplicate_ticket"), ticket: Ticket });
const DuplicateDelivery = obj({ status: z.literal("duplicate_delivery"), delivery: HelpdeskDelivery });
const FrontChallenge = obj({ challenge: z.string().describe("X-Front-Challenge, echoed") });

/** Each provider's own signature headers; which ones apply depends on {provider}. */
const header = (name: string, description: string) => ({
  in: "header",
  name,
  required: false,
  description,
  schema: { type: "string", maxLength: 4096 },
});
const providerHeaders = [
  header("webhook-id", "standard: the Standard Webhooks message id (also the delivery key)."),
  header("webhook-timestamp", "standard: unix seconds, within 5 minutes."),
  header("webhook-signature", 'standard: "v1,<base64 HMAC-SHA256(key, id + "." + timestamp + "." + rawBody)>", space-separated.'),
  header("X-Zendesk-Webhook-Signature", "zendesk: base64 HMAC-SHA256(secret, timestamp + rawBody)."),
  header("X-Zendesk-Webhook-Signature-Timestamp", "zendesk: the signed timestamp, within 5 minutes."),
  header("X-Zendesk-Webhook-Invocation-Id", "zendesk: the delivery key."),
  header("X-Hub-Signature", 'intercom: "sha1=<hex HMAC-SHA1(client secret, rawBody)>".'),
  header("X-HelpScout-Signature", "helpscout: base64 HMAC-SHA1(secret key, rawBody)."),
  header("X-HelpScout-Event", "helpscout: the event name."),
  header("X-Front-Signature", 'front: base64 HMAC-SHA256(secret, timestamp + ":" + rawBody).'),
  header("X-Front-Request-Timestamp", "front: ms since epoch, within 5 minutes."),
  header("X-Front-Challenge", "front: a webhook validation request; echoed as { challenge }."),
  header("X-Recall-Token", "freshdesk: the connection's token (or HTTP Basic with the token as user or password)."),
];

export const PROVIDER_SIGNATURE_SCHEMES = {
  standardSignature: {
    type: "apiKey",
    in: "header",
    name: "webhook-signature",
    description: "Standard Webhooks (webhook-id, webhook-timestamp, webhook-signature), keyed by the connection's whsec_ secret.",
  },
  zendeskSignature: {
    type: "apiKey",
    in: "header",
    name: "X-Zendesk-Webhook-Signature",
    description: "Zendesk: HMAC-SHA256 with X-Zendesk-Webhook-Signature-Timestamp, keyed by the webhook's signing secret.",
  },
  intercomSignature: {
    type: "apiKey",
    in: "header",
    name: "X-Hub-Signature",
    description: "Intercom: sha1=HMAC-SHA1 of the body, keyed by the app's client secret.",
  },
  helpscoutSignature: {
    type: "apiKey",
    in: "header",
    name: "X-HelpScout-Signature",
    description: "Help Scout: HMAC-SHA1 of the body, keyed by the webhook's secret key.",
  },
  frontSignature: {
    type: "apiKey",
    in: "header",
    name: "X-Front-Signature",
    description: "Front: HMAC-SHA256 with X-Front-Request-Timestamp, keyed by the app's secret.",
  },
  freshdeskToken: {
    type: "apiKey",
    in: "header",
    name: "X-Recall-Token",
    description: "Freshdesk: the connection's token in X-Recall-Token, or HTTP Basic with it.",
  },
} as const;

export const helpdeskDocs = {
  createConnection: describe({
    tag: "Helpdesks",
    summary: "Connect a helpdesk",
    description:
      "A webhook endpoint for one helpdesk (`webhookPath`). Recall generates the secret for Standard Webhooks, Help Scout and Freshdesk and shows it this once; Zendesk, Intercom and Front supply their own: pass it as `secret` now or later through /rotate (until then the connection is `awaiting_secret`).",
    responses: { 201: CreatedConnection },
    errors: { 400: "the secret does not fit the provider (too short, Zendesk's published test secret, …)" },
    requestExample: { provider: "standard", name: "Support desk" },
  }),
  listConnections: describe({
    tag: "Helpdesks",
    summary: "List helpdesk connections",
    description:
      "The tenant's connections, newest first, revoked ones included, with their secrets' ids and dates; never a secret. `limit` 1..200 (50) per page, `cursor` = the previous page's `nextCursor`.",
    responses: { 200: obj({ connections: z.array(Connection), nextCursor: nextCursorSchema }) },
  }),
  rotateConnectionSecret: describe({
    tag: "Helpdesks",
    summary: "Rotate a connection's secret",
    description:
      "A new secret (generated, or the helpdesk's own as `secret`); the previous ones keep verifying for `overlapHours` (default 24, 0 ends them now).",
    responses: { 201: RotatedSecret },
    errors: {
      404: "no such active connection",
      400: "the provider supplies its own secret and none was sent, or it does not fit the provider",
    },
    requestExample: { overlapHours: 24 },
  }),
  revokeConnection: describe({
    tag: "Helpdesks",
    summary: "Revoke a helpdesk connection",
    description: "The connection and all its secrets stop verifying now; its deliveries are answered 401.",
    responses: { 204: null },
    errors: { 404: "no such active connection" },
  }),
  connectionDeliveries: describe({
    tag: "Helpdesks",
    summary: "List a connection's deliveries",
    description:
      "The deliveries (kept 30 days), newest first, with their outcome and, when skipped, why; `limit` 1..200 (50) per page, `cursor` = the previous page's `nextCursor`.",
    responses: { 200: obj({ deliveries: z.array(HelpdeskDelivery), nextCursor: nextCursorSchema }) },
    errors: { 404: "no such connection" },
  }),
  deliver: describe({
    tag: "Webhooks",
    summary: "Receive a helpdesk's own webhook",
    description:
      "A helpdesk posts its native event here, signed its own way (see the security schemes; which headers apply depends on `provider`) instead of a Bearer key. A solved ticket is stored and queued for the pipeline (202 `queued`); a conversation message is gathered until the solved event (202 `gathered`); anything else is acknowledged with its reason (202 `skipped`) so the helpdesk does not retry it. A delivery seen before answers 200 from its record (`duplicate_delivery`), a ticket id stored before 200 `duplicate_ticket`, and Front's validation request 200 `{ challenge }`.",
    responses: {
      202: { schema: z.union([Queued, Gathered, Skipped]), description: "Accepted: queued, gathered or skipped (with the reason)" },
      200: {
        schema: z.union([DuplicateDelivery, DuplicateTicket, FrontChallenge]),
        description: "A delivery or ticket seen before, or Front's challenge",
      },
    },
    errors: {
      400: "a bad path parameter, non-UTF-8 bytes, a body that is not JSON, or an event of the provider Recall does not understand",
      401: "unknown or revoked connection, no secret yet, wrong secret, tampered body or stale timestamp: no hint which",
      404: "no such provider",
      413: "over 256 KiB",
      503: "the queue refused the message; nothing was stored: retry the delivery",
    },
    extra: {
      security: Object.keys(PROVIDER_SIGNATURE_SCHEMES).map((name) => ({ [name]: [] })),
      parameters: providerHeaders,
    },
  }),
};
