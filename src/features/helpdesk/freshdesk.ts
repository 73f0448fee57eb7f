/**
 * Freshdesk automation-rule webhooks (support.freshdesk.com, "Using webhooks in automation
 * rules"): Freshdesk signs nothing, so the rule carries a long random token Recall generates,
 * either as a custom header `X-Recall-Token: <token>` or as Basic auth (the token as the password,
 * or as the "API key" username). Compared in constant time. No timestamp: an exact redelivery is
 * refused by the body's hash, a later one for the same ticket by its ticket id.
 * The body is what the rule defines: the JSON template of docs/guides/helpdesks.md (`freshdesk_webhook` with
 * `ticket_*` placeholders, the same keys as the rule's simple form). Status "Resolved"/"Closed"
 * (or the REST codes 4/5) is solved.
 */
import { randomToken } from "../../core/base/crypto";
import { messageText } from "./text";
import { clampTicket, isRecord, type ProviderModule, str, toEpochMs } from "./types";
import { tokenMatchesAny } from "./verify";

const SOLVED = new Set(["resolved", "closed", "4", "5"]);

function basicCredentials(header: string | undefined): string[] {
  if (!header?.toLowerCase().startsWith("basic ")) return [];
  try {
    const decoded = atob(header.slice(6).trim());
    const colon = decoded.indexOf(":");
    return colon < 0 ? [decoded] : [decoded.slice(0, colon), decoded.slice(colon + 1)];
  } catch {
    return [];
  }
}

export const freshdesk: ProviderModule = {
  provider: "freshdesk",
  secretSource: "generated",
  generateSecret: () => `fdtok_${randomToken(32)}`,
  async verify(d, secrets) {
    const presented = [d.header("x-recall-token"), ...basicCredentials(d.header("authorization"))].filter((p): p is string => !!p);
    let ok = false;
    for (const p of presented) if (await tokenMatchesAny(secrets, p)) ok = true;
    return ok;
  },
  deliveryId: () => null,
  map(json, d) {
    const t = isRecord(json) && isRecord(json.freshdesk_webhook) ? json.freshdesk_webhook : json;
    if (!isRecord(t)) return { kind: "invalid", message: "expected { freshdesk_webhook: { ticket_id, … } }" };
    const externalId = str(t.ticket_id).trim();
    if (!externalId) return { kind: "invalid", message: "freshdesk_webhook.ticket_id is missing" };
    const status = str(t.ticket_status).trim().toLowerCase();
    if (!SOLVED.has(status)) return { kind: "skip", reason: `status "${status || "(none)"}" is not resolved or closed`, externalId };
    const answer = messageText(t.ticket_latest_public_comment);
    if (!answer) return { kind: "skip", reason: "no public answer", externalId };
    return {
      kind: "ticket",
      ticket: clampTicket("freshdesk", {
        externalId,
        subject: str(t.ticket_subject),
        question: messageText(t.ticket_description),
        answer,
        tags: Array.isArray(t.ticket_tags)
          ? t.ticket_tags
          : str(t.ticket_tags)
              .split(",")
              .map((x) => x.trim()),
        resolvedAt: toEpochMs(t.ticket_updated_at, d.nowMs),
      }),
    };
  },
};
