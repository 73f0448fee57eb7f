/**
 * Intercom webhooks (developers.intercom.com, "Webhooks" → signed notifications):
 *   X-Hub-Signature: sha1=<hex HMAC-SHA1(app client_secret, raw body)>. No timestamp in the
 *   scheme, so replays are refused by the notification id (`notif_…`), recorded per delivery.
 * Topic `conversation.admin.closed`: `data.item` is the conversation; the customer's first message
 * is `source` (subject, HTML body, author), replies are `conversation_parts.conversation_parts[]`.
 * The answer is the last part by an admin that is not a note (`note`, `note_and_reopen` are
 * internal); bot replies are not answers.
 */
import { messageText } from "./text";
import { clampTicket, isRecord, type ProviderModule, str, toEpochMs } from "./types";
import { decodeHex, hmacMatchesAny } from "./verify";

const CUSTOMER_AUTHORS = new Set(["user", "lead", "contact"]);

export const intercom: ProviderModule = {
  provider: "intercom",
  secretSource: "supplied",
  async verify(d, secrets) {
    const header = d.header("x-hub-signature") ?? "";
    const mac = header.startsWith("sha1=") ? decodeHex(header.slice(5)) : null;
    if (!mac) return false;
    return hmacMatchesAny("SHA-1", secrets, d.rawBody, [mac]);
  },
  deliveryId: (_d, json) => (isRecord(json) && typeof json.id === "string" && json.id ? json.id : null),
  map(json, d) {
    if (!isRecord(json) || typeof json.topic !== "string" || !isRecord(json.data))
      return { kind: "invalid", message: "expected a notification_event with topic and data" };
    const item = isRecord(json.data.item) ? json.data.item : null;
    const externalId = item ? str(item.id) : "";
    if (json.topic !== "conversation.admin.closed")
      return { kind: "skip", reason: `topic "${json.topic}" is not conversation.admin.closed`, externalId };
    if (!item || !externalId) return { kind: "invalid", message: "data.item.id is missing" };
    // `source` in API 2.x payloads, `conversation_message` in 1.x ones.
    const source = isRecord(item.source) ? item.source : isRecord(item.conversation_message) ? item.conversation_message : {};
    const sourceAuthor = isRecord(source.author) ? str(source.author.type) : "";
    const question = CUSTOMER_AUTHORS.has(sourceAuthor) || !sourceAuthor ? messageText(source.body) : "";
    if (!question) return { kind: "skip", reason: "the conversation was not started by a customer message", externalId };
    const container = isRecord(item.conversation_parts) ? item.conversation_parts.conversation_parts : undefined;
    const parts = Array.isArray(container) ? container.filter(isRecord) : [];
    const replies = parts
      .filter((p) => !str(p.part_type).includes("note") && isRecord(p.author) && p.author.type === "admin")
      .map((p) => ({ at: toEpochMs(p.created_at, 0), text: messageText(p.body) }))
      .filter((p) => p.text)
      .sort((a, b) => a.at - b.at);
    const answer = replies.at(-1)?.text;
    if (!answer) return { kind: "skip", reason: "no public admin reply (notes are never answers)", externalId };
    const stats = isRecord(item.statistics) ? item.statistics : {};
    const tags = isRecord(item.tags) && Array.isArray(item.tags.tags) ? item.tags.tags.filter(isRecord).map((t) => str(t.name)) : [];
    return {
      kind: "ticket",
      ticket: clampTicket("intercom", {
        externalId,
        subject: messageText(source.subject),
        question,
        answer,
        tags,
        resolvedAt: toEpochMs(stats.last_close_at ?? json.created_at, d.nowMs),
      }),
    };
  },
};
