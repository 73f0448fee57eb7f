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

/** Per API key, after authentication (the key's id, never the key itself). */
export function limitPerApiKey(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const { success } = await c.env.API_RATE_LIMIT.limit({ key: `key:${c.get("principal").keyId}` });
    if (!success) throw tooManyRequests("for this API key");
    await next();
  };
}

/** Rate-limit keys are bounded: an attacker's 1 MB header must not become a 1 MB key. */
const bounded = (value: string) => value.slice(0, 200);

/**
 * Webhooks are unauthenticated until their signature is checked, which needs D1: count each
 * delivery per source address and per claimed tenant (the X-Recall-Tenant header, or the helpdesk
 * connection in the path) before any D1 work. The address is CF-Connecting-IP, set by Cloudflare.
 */
export function limitWebhooks(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const source = c.req.header("cf-connecting-ip") ?? "unknown";
    const sourceOk = await c.env.WEBHOOK_SOURCE_RATE_LIMIT.limit({ key: `ip:${bounded(source)}` });
    if (!sourceOk.success) throw tooManyRequests("from this address");
    const tenant = webhookTenantKey(c.req.path, c.req.header("x-recall-tenant"));
    if (tenant !== null) {
      const tenantOk = await c.env.WEBHOOK_TENANT_RATE_LIMIT.limit({ key: bounded(tenant) });
      if (!tenantOk.success) throw tooManyRequests("for this tenant");
    }
    await next();
  };
}

/** `/v1/webhooks/tickets/:provider/:connectionId` → the connection; `/v1/webhooks/tickets` → the tenant header. */
export function webhookTenantKey(path: string, tenantHeader: string | undefined): string | null {
  const connection = /^\/v1\/webhooks\/tickets\/([^/]+)\/([^/]+)\/?$/.exec(path);
  if (connection) return `connection:${connection[1]}/${connection[2]}`;
  return tenantHeader ? `tenant:${tenantHeader}` : null;
}
