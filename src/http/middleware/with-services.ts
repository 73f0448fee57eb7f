import type { MiddlewareHandler } from "hono";
import type { Defer, Services } from "../../platform/ports/services";
import type { AppEnv } from "../context";
import { afterResponse } from "../log";

/**
 * The request's services; what they defer (cache writes) starts only once the route has built its
 * answer, on the next turn of the event loop: on the local stack a KV write runs in the same
 * process, and started mid-request it held back the search it was not needed by, and the answer.
 */
export function withServices(create: (env: Env, defer: Defer) => Services): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const deferred: (() => Promise<unknown>)[] = [];
    const services = { ...create(c.env, (start) => deferred.push(start)), log: c.get("log") };
    c.set("services", services);
    try {
      await next();
    } finally {
      if (deferred.length > 0) afterResponse(c, "deferred", () => nextTurn().then(() => Promise.all(deferred.map((start) => start()))));
      // The FAQ store's Postgres pool, when this request opened one: its sockets end with the request.
      const pg = services.faqPostgres;
      if (pg) afterResponse(c, "pg_release", () => pg.release());
    }
  };
}

const nextTurn = () => new Promise<void>((resolve) => setTimeout(resolve, 0));
