/**
 * A request no route answers is refused from the router's table alone: 404 NOT_FOUND when no route
 * takes the path, 405 METHOD_NOT_ALLOWED with `Allow` when routes take it with other methods, both
 * in the error envelope. The v1 group asks first, before it reads a body or checks a key: it used
 * to parse the body first, so a bad body to a GET-only path was a 400 INVALID_JSON (issue 34).
 * The route table is no secret (GET /openapi.json), so answering it without a key tells nothing.
 */
import type { Context, Hono, MiddlewareHandler } from "hono";
import { matchedRoutes } from "hono/route";
import type { AppEnv } from "./context";
import { errorBody } from "./errors";

/** The whole app, read per request: it is built after the groups that ask (src/app/app.ts). */
export type AppRouter = () => Pick<Hono, "router">;

/** The methods routes are declared with; HEAD is answered by every GET route (Hono runs it as GET). */
const ROUTE_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;

/** The methods some route answers at `path`, in a fixed order, HEAD after GET. Middleware (`use`: method ALL) is not a route. */
export function allowedMethods(app: Pick<Hono, "router">, path: string): string[] {
  const allowed = ROUTE_METHODS.filter((method) => app.router.match(method, path)[0].some(([[, route]]) => route.method === method));
  return allowed.flatMap((method) => (method === "GET" ? ["GET", "HEAD"] : [method]));
}

/** The 404 or 405 answer for a request no route answers. */
export function noRoute(c: Context<AppEnv>, allowed: readonly string[]): Response {
  const requestId = c.get("requestId") ?? "unknown";
  if (allowed.length === 0) {
    c.set("errorCode", "NOT_FOUND");
    return c.json(errorBody("NOT_FOUND", `No route for ${c.req.method} ${c.req.path}`, requestId), 404);
  }
  c.set("errorCode", "METHOD_NOT_ALLOWED");
  const message = `${c.req.path} does not take ${c.req.method}; it takes ${allowed.join(", ")}`;
  return c.json(errorBody("METHOD_NOT_ALLOWED", message, requestId), 405, { allow: allowed.join(", ") });
}

/**
 * Answers 404/405 at once when no route takes this method at this path; otherwise goes on. Only
 * for the methods `applies` names: the screens keep their own HTML answers for GET and POST.
 */
export function knownRoutesOnly(app: AppRouter, applies: (method: string) => boolean = () => true): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (!applies(c.req.method)) return next();
    // The routes matched for this method are already known; the router is asked again only to build Allow.
    const method = c.req.method === "HEAD" ? "GET" : c.req.method;
    if (matchedRoutes(c).some((route) => route.method === method)) return next();
    return noRoute(c, allowedMethods(app(), c.req.path));
  };
}
