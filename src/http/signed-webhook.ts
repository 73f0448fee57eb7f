/**
 * The steps both webhook routes take around their feature (routes/webhooks.ts,
 * routes/helpdesk-webhooks.ts): nothing is parsed before the signature checked out, a verified
 * delivery spends the quota of what it names (rate-limit.ts), and a queue that refused its tickets
 * is a 503 the sender retries.
 */
import type { Context } from "hono";
import { errorFields } from "../platform/observe/log";
import { bindTenant } from "./access-log";
import type { AppEnv } from "./context";
import { AppError } from "./errors";
import { countVerifiedWebhook, refuseUnverifiedWebhook } from "./rate-limit";
import { requireText } from "./validation";

/** The verified sender, counted and its tenant bound to the request; null is refused with a 401 of `code`. */
export async function admitWebhook<Sender extends { tenantId: string }>(
  c: Context<AppEnv>,
  tenantKey: string,
  verified: Sender | null,
  code: "UNAUTHORIZED" | "WEBHOOK_SIGNATURE_INVALID",
): Promise<Sender> {
  if (!verified) return refuseUnverifiedWebhook(c.env, tenantKey, new AppError(code, "The webhook signature is not valid"));
  await countVerifiedWebhook(c.env, tenantKey);
  bindTenant(c, verified.tenantId);
  return verified;
}

export function signedJson(rawBody: string): unknown {
  let json: unknown;
  try {
    json = JSON.parse(rawBody);
  } catch {
    throw new AppError("INVALID_JSON", "The request body is not valid JSON");
  }
  requireText(json);
  return json;
}

export function enqueueFailed(c: Context<AppEnv>, error: Error, fields: Record<string, unknown> = {}): never {
  c.get("log").error("ticket_enqueue_failed", { ...fields, ...errorFields(error) });
  throw new AppError("UNAVAILABLE", "The ticket queue is unavailable; retry the delivery");
}
