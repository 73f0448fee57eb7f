/**
 * Front application webhooks (dev.frontapp.com/docs/application-webhooks):
 *   X-Front-Signature = base64 HMAC-SHA256(app signing key, `${X-Front-Request-Timestamp}:${raw body}`),
 *   the timestamp in milliseconds (checked within 5 minutes either way). Saving the webhook sends a
 *   signed `sync` request with X-Front-Challenge, answered 200 `{ "challenge": <value> }`.
 * Front's events carry one message each and the archive event none, so messages are gathered per
 * conversation: an inbound message (the first one kept) is the question, an outbound one (the
 * last kept) the answer; a comment is internal and never kept; archiving the conversation turns
 * them into a ticket. Rule webhooks send the event itself rather than `{ payload }`; both are read,
 * and a preview without a message body is skipped with the reason ("send full event data").
 */
import { messageText } from "./text";
import { isRecord, type Mapped, type ProviderModule, str, TIMESTAMP_TOLERANCE_MS, toEpochMs } from "./types";
import { decodeBase64, hmacMatchesAny, withinWindow } from "./verify";

const INBOUND = new Set(["inbound", "inbound_received"]);
const OUTBOUND = new Set(["outbound", "out_reply", "outbound_sent", "outbound_reply"]);
const ARCHIVE = new Set(["archive", "conversation_archived"]);
const COMMENT = new Set(["comment", "new_comment_added", "mention"]);

export const front: ProviderModule = {
  provider: "front",
  secretSource: "supplied",
  async verify(d, secrets) {
    const timestamp = d.header("x-front-request-timestamp");
    const mac = decodeBase64(d.header("x-front-signature"));
    if (!timestamp || !/^\d{1,15}$/.test(timestamp) || !mac) return false;
    if (!withinWindow(Number(timestamp), d.nowMs, TIMESTAMP_TOLERANCE_MS)) return false;
    return hmacMatchesAny("SHA-256", secrets, `${timestamp}:${d.rawBody}`, [mac]);
  },
  challenge(d) {
    return d.header("x-front-challenge") || null;
  },
  deliveryId(_d, json) {
    const event = isRecord(json) && isRecord(json.payload) ? json.payload : json;
    return isRecord(event) && typeof event.id === "string" && event.id ? event.id : null;
  },
  map(json, d): Mapped {
    if (!isRecord(json)) return { kind: "invalid", message: "expected a JSON object" };
    if (json.type === "sync") return { kind: "skip", reason: "sync (webhook validation)" };
    const event = isRecord(json.payload) ? json.payload : json;
    const type = str(event.type);
    const conversation = isRecord(event.conversation) ? event.conversation : {};
    const externalId = str(conversation.id);
    if (!type || !externalId) return { kind: "invalid", message: "expected an event with type and conversation.id" };
    if (COMMENT.has(type)) return { kind: "skip", reason: "internal comment (never an answer)", externalId };
    if (ARCHIVE.has(type)) {
      const tags = Array.isArray(conversation.tags) ? conversation.tags.map((t) => (isRecord(t) ? str(t.name) : str(t))) : [];
      return {
        kind: "solved_thread",
        externalId,
        subject: str(conversation.subject),
        tags,
        resolvedAt: toEpochMs(event.emitted_at, d.nowMs),
      };
    }
    const isInbound = INBOUND.has(type);
    if (!isInbound && !OUTBOUND.has(type)) return { kind: "skip", reason: `event type "${type}" is not used`, externalId };
    const target = isRecord(event.target) ? event.target : {};
    const message = isRecord(target.data) ? target.data : {};
    const text = messageText(message.body) || messageText(message.text);
    if (!text) return { kind: "skip", reason: "event preview without the message body (enable full event data)", externalId };
    const subject = str(conversation.subject) || str(message.subject);
    return { kind: "thread_part", part: isInbound ? { externalId, subject, question: text } : { externalId, subject, answer: text } };
  },
};
