/**
 * Standard Webhooks (standardwebhooks.com spec v1, as emitted by Svix and others):
 *   webhook-id, webhook-timestamp (unix seconds), webhook-signature: "v1,<base64>" (space-separated,
 *   several allowed during the sender's own key rotation) = base64 HMAC-SHA256 over
 *   `${id}.${timestamp}.${rawBody}` keyed by the base64-decoded part of the `whsec_` secret.
 * The payload follows the spec's `{ type, timestamp, data }`; Recall takes `type` "ticket.solved"
 * (also "ticket.resolved", "ticket.closed") with `data` in the native ticket shape.
 */
import { z } from "zod";
import { generateSecret } from "../tickets/secrets";
import { decodeBase64, hmacMatchesAny, withinWindow } from "./verify";
import { clampTicket, isRecord, type ProviderModule, str, TIMESTAMP_TOLERANCE_MS } from "./types";
import { messageText } from "./text";

const SOLVED_TYPES = new Set(["ticket.solved", "ticket.resolved", "ticket.closed"]);

const dataSchema = z.object({
  ticketId: z.union([z.string().trim().min(1).max(190), z.number().int()]),
  subject: z.string().max(10_000).default(""),
  question: z.string().min(1).max(100_000),
  answer: z.string().max(100_000).default(""),
  tags: z.array(z.string()).max(200).default([]),
  resolvedAt: z.iso.datetime({ offset: true }),
});

/** The HMAC key of a `whsec_` secret (the base64 part decoded); null when it is not one. */
export function standardKey(secret: string): Uint8Array | null {
  return secret.startsWith("whsec_") ? decodeBase64(secret.slice(6)) : null;
}

export const standard: ProviderModule = {
  provider: "standard",
  secretSource: "generated",
  generateSecret,
  async verify(d, secrets) {
    const id = d.header("webhook-id");
    const timestamp = d.header("webhook-timestamp");
    if (!id || !timestamp || !/^\d{1,12}$/.test(timestamp)) return false;
    if (!withinWindow(Number(timestamp) * 1000, d.nowMs, TIMESTAMP_TOLERANCE_MS)) return false;
    const macs = (d.header("webhook-signature") ?? "")
      .split(" ")
      .filter((s) => s.startsWith("v1,"))
      .map((s) => decodeBase64(s.slice(3)))
      .filter((m): m is Uint8Array => m !== null);
    const keys = secrets.map(standardKey).filter((k): k is Uint8Array => k !== null);
    return hmacMatchesAny("SHA-256", keys, `${id}.${timestamp}.${d.rawBody}`, macs);
  },
  deliveryId: (d) => d.header("webhook-id") ?? null,
  map(json, d) {
    if (!isRecord(json) || typeof json.type !== "string") return { kind: "invalid", message: "expected { type, timestamp, data }" };
    if (!SOLVED_TYPES.has(json.type)) return { kind: "skip", reason: `event type "${json.type}" is not ticket.solved` };
    const parsed = dataSchema.safeParse(json.data);
    if (!parsed.success)
      return { kind: "invalid", message: `data: ${parsed.error.issues.map((i) => i.path.join(".") || "(root)").join(", ")}` };
    const t = parsed.data;
    const answer = messageText(t.answer);
    if (!answer) return { kind: "skip", reason: "no public answer", externalId: str(t.ticketId) };
    return {
      kind: "ticket",
      ticket: clampTicket("standard", {
        externalId: str(t.ticketId),
        subject: t.subject,
        question: messageText(t.question),
        answer,
        tags: t.tags,
        resolvedAt: Date.parse(t.resolvedAt) || d.nowMs,
      }),
    };
  },
};
