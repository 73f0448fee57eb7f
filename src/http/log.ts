import type { Context } from "hono";
import type { AppEnv } from "./context";

/** One structured log line, tagged with the request id and tenant. */
export function logEvent(c: Context<AppEnv>, event: string, fields: Record<string, unknown> = {}): void {
  console.log(JSON.stringify({ event, requestId: c.get("requestId"), clientRequestId: c.get("clientRequestId"), tenantId: c.get("principal")?.tenantId, ...fields }));
}

/** Runs work after the response is sent, logging (never throwing) a failure. */
export function afterResponse(c: Context<AppEnv>, what: string, work: Promise<unknown>): void {
  const guarded = work.catch((error) => logEvent(c, `${what}_failed`, { error: error instanceof Error ? error.message : String(error) }));
  try {
    c.executionCtx.waitUntil(guarded);
  } catch {
    // No execution context (app.fetch called without one): the promise still runs.
  }
}
