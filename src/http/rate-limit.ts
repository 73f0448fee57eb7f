/**
 * Rate limits through the Workers Rate Limiting binding (fixed windows, counted per Cloudflare
 * location: abuse protection, not exact quotas). The limits themselves are the bindings' config in
 * wrangler.toml; this module decides what is counted under which key and answers 429 in the one
 * error envelope with `Retry-After`.
 */
import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "./context";
import { AppError } from "./errors";

/** The `period` every rate-limit binding in wrangler.toml uses; Retry-After is computed from it. */
export const RATE_LIMIT_PERIOD_SECONDS = 60;

/** Seconds until the current fixed window ends (1..period): when a refused caller may try again. */
export function retryAfterSeconds(nowMs: number, periodSeconds = RATE_LIMIT_PERIOD_SECONDS): number {
  const elapsed = (nowMs / 1000) % periodSeconds;
  return Math.min(periodSeconds, Math.max(1, Math.ceil(periodSeconds - elapsed)));
}

function tooManyRequests(what: string): AppError {
  const retryAfter = retryAfterSeconds(Date.now());
  return new AppError("RATE_LIMITED", `Too many requests ${what}; retry after ${retryAfter} s`, undefined, retryAfter);
}

/**
 * Per API key, after authentication (the key's id, never the key itself), and per tenant above it:
 * an admin can mint keys, so the key's window alone bounded nothing.
 */
export function limitPerApiKey(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const { keyId, tenantId } = c.get("principal");
    const [key, tenant] = await Promise.all([
      c.env.API_RATE_LIMIT.limit({ key: `key:${keyId}` }),
      c.env.TENANT_RATE_LIMIT.limit({ key: `tenant:${tenantId}` }),
    ]);
    if (!key.success) throw tooManyRequests("for this API key");
    if (!tenant.success) throw tooManyRequests("for this tenant (all its keys together)");
    await next();
  };
}

/**
 * /ui sign-in attempts per address (CF-Connecting-IP), counted before the key is looked up: a
 * guessed key costs a D1 read, and a wrong key names no tenant to count under. Returns the seconds
 * to wait when the address used up its window, else null.
 */
export async function signInRefusedFor(env: Env, address: string | undefined, now: number): Promise<number | null> {
  const { success } = await env.LOGIN_RATE_LIMIT.limit({ key: `login:${bounded(address ?? "unknown")}` });
  return success ? null : retryAfterSeconds(now);
}

/** Rate-limit keys are bounded: an attacker's 1 MB header must not become a 1 MB key. */
const bounded = (value: string) => value.slice(0, 200);

/**
 * Webhooks are unauthenticated until their signature is checked, which needs D1: before any D1
 * work each delivery is counted only per source address (CF-Connecting-IP, set by Cloudflare).
 * The tenant's own quota is counted after the check (countVerifiedWebhook): counted before it, 300
 * unsigned posts naming a tenant used up that tenant's window and its genuine deliveries got 429
 * (issue 34). A claimed tenant bounded no one anyway: a sender can name any tenant it likes.
 */
export function limitWebhooks(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const source = c.req.header("cf-connecting-ip") ?? "unknown";
    const sourceOk = await c.env.WEBHOOK_SOURCE_RATE_LIMIT.limit({ key: `ip:${bounded(source)}` });
    if (!sourceOk.success) throw tooManyRequests("from this address");
    await next();
  };
}

/**
 * After its signature checked out: the delivery spends the quota of what it names, `tenant:<id>` (the
 * native webhook's X-Recall-Tenant) or `connection:<provider>/<id>` (a helpdesk connection): 429 past it.
 */
export async function countVerifiedWebhook(env: Env, tenantKey: string): Promise<void> {
  const { success } = await env.WEBHOOK_TENANT_RATE_LIMIT.limit({ key: bounded(tenantKey) });
  if (!success) throw tooManyRequests("for this tenant");
}

/**
 * After its signature failed: the delivery is counted under a key of its own, so a flood of forged
 * deliveries naming a tenant still ends in 429 but never spends that tenant's quota; below that
 * limit it gets `refusal` (the route's 401). Throws either way.
 */
export async function refuseUnverifiedWebhook(env: Env, tenantKey: string, refusal: AppError): Promise<never> {
  const { success } = await env.WEBHOOK_TENANT_RATE_LIMIT.limit({ key: bounded(`unverified:${tenantKey}`) });
  if (!success) throw tooManyRequests("with a signature that is not valid");
  throw refusal;
}
