import type { Context } from "hono";
import { errorFields } from "../log";
import type { AppEnv } from "./context";

/**
 * Starts work on the next turn of the event loop, once the route has returned its answer, and
 * keeps the request alive until it ends, logging (never throwing) a failure. Given the start, not
 * a running promise: on the local stack D1 and KV run in the Worker's own process, and writes
 * started before the answer held it back (a /v1/context call's recall and metric writes).
 */
export function afterResponse(c: Context<AppEnv>, what: string, start: () => Promise<unknown>): void {
  const log = c.get("log");
  const guarded = nextTurn()
    .then(start)
    .catch((error: unknown) => log.warn(`${what}_failed`, errorFields(error)));
  try {
    c.executionCtx.waitUntil(guarded);
  } catch {
    // No execution context (app.fetch called without one): the promise still runs.
  }
}

const nextTurn = () => new Promise<void>((resolve) => setTimeout(resolve, 0));
