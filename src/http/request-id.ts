/**
 * Request ids are the service's own: every request gets a fresh one (`x-request-id` on the answer,
 * `requestId` in the error envelope and the logs). A caller's `x-request-id` is never adopted, so
 * one caller cannot make its requests look like another's in the logs; a well-formed one is echoed
 * as `x-client-request-id` and logged next to ours. In-process calls (MCP tools, the hook, the
 * screens) keep their outer request's id through `forwardRequestId`, which no caller can reach.
 */
import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "./context";

/** What a caller's id may look like to be echoed and logged: 1–128 of [A-Za-z0-9._:-]. */
export const CLIENT_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

const forwarded = new WeakMap<Request, string>();

/** Marks an in-process request as part of the request `requestId` (the object, not a header: unforgeable). */
export function forwardRequestId(request: Request, requestId: string): Request {
  forwarded.set(request, requestId);
  return request;
}

export const requestIds: MiddlewareHandler<AppEnv> = async (c, next) => {
  const requestId = forwarded.get(c.req.raw) ?? crypto.randomUUID();
  c.set("requestId", requestId);
  const claimed = c.req.header("x-request-id");
  const clientRequestId = claimed !== undefined && CLIENT_REQUEST_ID.test(claimed) ? claimed : undefined;
  if (clientRequestId !== undefined) c.set("clientRequestId", clientRequestId);
  await next();
  c.header("x-request-id", requestId);
  if (clientRequestId !== undefined) c.header("x-client-request-id", clientRequestId);
};

/** Paths whose own caching policy stands: the reference page's assets and the screens. */
const OWN_CACHING = /^\/(?:ui(?:\/|$)|docs(?:\/|$)|reference\/)/;

/**
 * Every answer is `nosniff`; every API answer (errors included) is `no-store`: they carry tenant
 * data, new keys and secrets, which no shared or browser cache may keep.
 */
export const noStoreNoSniff: MiddlewareHandler<AppEnv> = async (c, next) => {
  await next();
  c.header("x-content-type-options", "nosniff");
  if (!OWN_CACHING.test(c.req.path)) c.header("cache-control", "no-store");
};
