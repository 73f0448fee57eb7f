/**
 * Facts about a route that middleware running before it must know, declared on the route itself
 * as a marker handler (a no-op) and read from the route the request matched: no path list kept
 * apart from the routes. Hono knows the matched route before any middleware runs.
 *
 * A sub-app with its own onError would wrap its handlers and hide the markers: none has one.
 */
import type { Context, MiddlewareHandler } from "hono";
import { matchedRoutes } from "hono/route";

const marker = (): MiddlewareHandler => (_c, next) => next();

/**
 * A POST that only reads (a search whose body is too large for a query string): like a GET, its
 * D1 session may start on a read replica (src/http/bookmark.ts). Every other POST, PUT, PATCH and
 * DELETE starts on the primary: a create reads before it writes (the question dedupe, the FAQ
 * version it updates), and on a lagging replica it would decide on rows older than the caller's
 * own last write. POST /v1/questions/similar is not marked: it can record the question.
 */
export const readsOnly = marker();

/** A route that takes NDJSON (one JSON object per line, application/x-ndjson) besides JSON, with its own size limit (middleware/json-bodies.ts). */
export const takesNdjson = marker();

/**
 * A route of the deployment, not of the caller's tenant (tenants, databases, moves): a move of the caller's own tenant does
 * not hold it, or the operator could not finish moving the operator's tenant (middleware/tenant-database.ts).
 */
export const ofTheDeployment = marker();

/** Whether the route this request matched carries the fact. */
export const routeHas = (c: Context, fact: MiddlewareHandler) => matchedRoutes(c).some((route) => route.handler === fact);
