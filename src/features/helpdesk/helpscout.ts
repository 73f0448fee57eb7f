/**
 * Help Scout webhooks (developer.helpscout.com/webhooks):
 *   X-HelpScout-Signature = base64 HMAC-SHA1(secret key, raw body); X-HelpScout-Event names the event.
 *   The secret key is chosen when the webhook is created in Help Scout (≤ 40 characters), so Recall
 *   generates a 32-character one to paste. No timestamp in the scheme: an exact redelivery is
 *   refused by the body's hash, a later one for the same conversation by its ticket id.
 * Event `convo.status` with status `closed`: the body is the v2 Conversation object, threads in
 * `_embedded.threads[]` (`customer`: the customer's message, `reply`: an agent reply, `note`:
 * internal). The legacy 1.0 shape (`threads[]`, agent replies `message`) is read too.
 */
import { randomToken } from "../../core/base/crypto";
import { messageText } from "./text";
import { clampTicket, isRecord, type ProviderModule, str, toEpochMs } from "./types";
import { decodeBase64, hmacMatchesAny } from "./verify";

const AGENT_REPLY = new Set(["reply", "message"]);

export const helpscout: ProviderModule = {
  provider: "helpscout",
  secretSource: "generated",
  generateSecret: () => randomToken(24),
  async verify(d, secrets) {
    const mac = decodeBase64(d.header("x-helpscout-signature"));
    if (!mac) return false;
    return hmacMatchesAny("SHA-1", secrets, d.rawBody, [mac]);
  },
  deliveryId: () => null,
  map(json, d) {
    const event = d.header("x-helpscout-event") ?? "";
    if (!isRecord(json)) return { kind: "invalid", message: "expected a Conversation object" };
    const externalId = str(json.id);
    if (event !== "convo.status") return { kind: "skip", reason: `event "${event || "(none)"}" is not convo.status`, externalId };
    if (!externalId) return { kind: "invalid", message: "id is missing" };
    const status = str(json.status).toLowerCase();
    if (status !== "closed") return { kind: "skip", reason: `status "${status || "(none)"}" is not closed`, externalId };
    const embedded = isRecord(json._embedded) ? json._embedded.threads : undefined;
    const raw = Array.isArray(embedded) ? embedded : Array.isArray(json.threads) ? json.threads : [];
    const threads = raw
      .filter(isRecord)
      .map((t) => ({ type: str(t.type), state: str(t.state), at: toEpochMs(t.createdAt, 0), text: messageText(t.body) }))
      .filter((t) => t.text && t.state !== "draft" && t.state !== "hidden")
      .sort((a, b) => a.at - b.at);
    const question = threads.find((t) => t.type === "customer")?.text;
    if (!question) return { kind: "skip", reason: "no customer message in the conversation's threads", externalId };
    const answer = threads.filter((t) => AGENT_REPLY.has(t.type)).at(-1)?.text;
    if (!answer) return { kind: "skip", reason: "no public agent reply (notes are never answers)", externalId };
    const tags = Array.isArray(json.tags) ? json.tags.map((t) => (isRecord(t) ? str(t.tag) : str(t))) : [];
    return {
      kind: "ticket",
      ticket: clampTicket("helpscout", {
        externalId,
        subject: str(json.subject),
        question,
        answer,
        tags,
        resolvedAt: toEpochMs(json.closedAt ?? json.userUpdatedAt, d.nowMs),
      }),
    };
  },
};
