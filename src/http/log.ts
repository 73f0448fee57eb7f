import type { Context } from "hono";
import { errorFields } from "../platform/observe/log";
import { runDeferred } from "../platform/observe/io-trace";
import type { AppEnv } from "./context";

/**
 * Runs work the answer does not wait for, logging (never throwing) a failure. Started at once, as
 * deferred work (src/platform/observe/io-trace.ts): its round trips are not counted as the request's.
 */
export function afterResponse(c: Context<AppEnv>, what: string, start: () => Promise<unknown>): void {
  const log = c.get("log");
  const guarded = runDeferred(start).catch((error: unknown) => log.warn(`${what}_failed`, errorFields(error)));
  try {
    c.executionCtx.waitUntil(guarded);
  } catch {
    // No execution context (app.fetch called without one): the promise still runs.
  }
}
