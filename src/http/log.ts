import type { Context } from "hono";
import { errorFields } from "../log";
import type { AppEnv } from "./context";

/** Runs work after the response is sent, logging (never throwing) a failure. */
export function afterResponse(c: Context<AppEnv>, what: string, work: Promise<unknown>): void {
  const log = c.get("log");
  const guarded = work.catch((error: unknown) => log.warn(`${what}_failed`, errorFields(error)));
  try {
    c.executionCtx.waitUntil(guarded);
  } catch {
    // No execution context (app.fetch called without one): the promise still runs.
  }
}
