/**
 * Zendesk webhooks (developer.zendesk.com/documentation/webhooks/verifying/):
 *   X-Zendesk-Webhook-Signature = base64 HMAC-SHA256(signing secret as UTF-8, TIMESTAMP + BODY),
 *   X-Zendesk-Webhook-Signature-Timestamp = ISO-8601 (checked within 5 minutes either way).
 * The signing secret is Zendesk's (shown on the webhook's page): the admin pastes it. Zendesk's
 * published test secret is NOT accepted (anyone could sign with it).
 *
 * Two body shapes:
 * - the trigger template in docs/guides/helpdesks.md (recommended): `{ "ticket": { id, subject, description,
 *   status, tags, latest_public_comment, updated_at } }`, sent by a trigger on "status changed to
 *   solved" with a public agent comment, so the answer is in the one delivery;
 * - event subscriptions (`type: "zen:event-type:…"`): `ticket.comment_added` carries one comment
 *   (kept when `is_public` and the author `is_staff`), `ticket.status_changed` to SOLVED/CLOSED
 *   carries subject and description but no reply, so it completes the comments gathered before.
 */
import { messageText } from "./text";
import { clampTicket, isRecord, type Mapped, type ProviderModule, str, TIMESTAMP_TOLERANCE_MS, toEpochMs } from "./types";
import { decodeBase64, hmacMatchesAny, withinWindow } from "./verify";

const SOLVED = new Set(["solved", "closed"]);

function tagList(v: unknown): string[] {
  if (Array.isArray(v)) return v.map(str);
  return str(v)
    .split(/[\s,]+/)
    .filter(Boolean);
}

function mapTrigger(ticket: Record<string, unknown>, nowMs: number): Mapped {
  const externalId = str(ticket.id).trim();
  if (!externalId) return { kind: "invalid", message: "ticket.id is missing" };
  const status = str(ticket.status).trim().toLowerCase();
  if (!SOLVED.has(status)) return { kind: "skip", reason: `status "${status || "(none)"}" is not solved or closed`, externalId };
  const answer = messageText(ticket.latest_public_comment);
  if (!answer) return { kind: "skip", reason: "no public answer", externalId };
  return {
    kind: "ticket",
    ticket: clampTicket("zendesk", {
      externalId,
      subject: str(ticket.subject),
      question: messageText(ticket.description),
      answer,
      tags: tagList(ticket.tags),
      resolvedAt: toEpochMs(ticket.updated_at, nowMs),
    }),
  };
}

function mapEvent(json: Record<string, unknown>, nowMs: number): Mapped {
  const type = str(json.type);
  const detail = isRecord(json.detail) ? json.detail : {};
  const event = isRecord(json.event) ? json.event : {};
  const externalId = str(detail.id) || str(json.subject).replace(/^zen:ticket:/, "");
  if (!externalId) return { kind: "invalid", message: "detail.id is missing" };
  if (type === "zen:event-type:ticket.comment_added") {
    const comment = isRecord(event.comment) ? event.comment : {};
    const author = isRecord(comment.author) ? comment.author : {};
    if (comment.is_public !== true) return { kind: "skip", reason: "internal note (not public)", externalId };
    const body = messageText(comment.body);
    if (!body) return { kind: "skip", reason: "empty comment", externalId };
    return {
      kind: "thread_part",
      part: { externalId, subject: str(detail.subject), ...(author.is_staff === true ? { answer: body } : { question: body }) },
    };
  }
  if (type === "zen:event-type:ticket.status_changed") {
    const current = str(event.current).toLowerCase();
    if (!SOLVED.has(current)) return { kind: "skip", reason: `status changed to "${current}", not solved or closed`, externalId };
    return {
      kind: "solved_thread",
      externalId,
      subject: str(detail.subject),
      question: messageText(detail.description),
      tags: tagList(detail.tags),
      resolvedAt: toEpochMs(json.time, nowMs),
    };
  }
  return { kind: "skip", reason: `event type "${type}" is not used`, externalId };
}

export const zendesk: ProviderModule = {
  provider: "zendesk",
  secretSource: "supplied",
  async verify(d, secrets) {
    const timestamp = d.header("x-zendesk-webhook-signature-timestamp");
    const mac = decodeBase64(d.header("x-zendesk-webhook-signature"));
    if (!timestamp || !mac || !withinWindow(Date.parse(timestamp), d.nowMs, TIMESTAMP_TOLERANCE_MS)) return false;
    return hmacMatchesAny("SHA-256", secrets, timestamp + d.rawBody, [mac]);
  },
  deliveryId: (d, json) =>
    d.header("x-zendesk-webhook-invocation-id") ?? (isRecord(json) && typeof json.id === "string" && json.type ? json.id : null),
  map(json, d) {
    if (!isRecord(json)) return { kind: "invalid", message: "expected a JSON object" };
    if (isRecord(json.ticket)) return mapTrigger(json.ticket, d.nowMs);
    if (typeof json.type === "string" && json.type.startsWith("zen:event-type:")) return mapEvent(json, d.nowMs);
    return { kind: "invalid", message: "expected the trigger template's { ticket: … } or a zen:event-type envelope" };
  },
};
