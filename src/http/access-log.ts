/**
 * One access-log line per request, and the request's logger for everything logged while it runs.
 * Mounted right after the request id, so a failure anywhere later (auth, validation, a fault in a
 * route) is still counted here, with the code the error envelope answered.
 */
import type { Context, MiddlewareHandler } from "hono";
import { matchedRoutes } from "hono/route";
import { createLogger, type Logger } from "../platform/observe/log";
import type { AppEnv } from "./context";

export function accessLog(root: (fields: Record<string, unknown>) => Logger = createLogger): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const started = performance.now();
    const clientRequestId = c.get("clientRequestId");
    c.set("log", root({ requestId: c.get("requestId"), ...(clientRequestId ? { clientRequestId } : {}) }));
    await next();
    const status = c.res.status;
    const errorCode = c.get("errorCode");
    const io = c.get("io");
    const durationMs = Math.round((performance.now() - started) * 10) / 10;
    // The Worker's whole part of the request, for telling it from the network's (and a route's own spans).
    c.header("server-timing", `app;dur=${durationMs}`, { append: true });
    const line = {
      tenant: c.get("tenant") ?? null,
      route: routePattern(c),
      method: c.req.method,
      status,
      durationMs,
      ...(errorCode ? { errorCode } : {}),
      // The round trips the answer waited for (src/http/io-trace.ts), as in Server-Timing `io`.
      ...(io ? { io } : {}),
    };
    const log = c.get("log");
    if (status >= 500) log.error("request", line);
    else if (status >= 400) log.warn("request", line);
    else log.info("request", line);
  };
}

/**
 * The route pattern that matched (`/v1/memories/:id`), never the raw path, so ids and scopes stay
 * out of the route field and lines group by route. Null when only middleware matched (a 404).
 */
export function routePattern(c: Context): string | null {
  const handlers = matchedRoutes(c).filter((route) => route.method !== "ALL" || !route.path.endsWith("*"));
  return handlers.at(-1)?.path ?? null;
}

/** From here on the request's lines (its own and its domain code's, via Services.log) carry its tenant. */
export function bindTenant(c: Context<AppEnv>, tenant: string): void {
  const log = c.get("log").with({ tenant });
  c.set("tenant", tenant);
  c.set("log", log);
  c.set("services", { ...c.get("services"), log });
}
