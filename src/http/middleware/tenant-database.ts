import type { Context, MiddlewareHandler } from "hono";
import { servicesIn } from "../../platform/ports/services";
import type { AppEnv } from "../context";
import { ofTheDeployment, readsOnly, routeHas } from "../route-facts";
import { refuseWhileMoving } from "../tenant-moving";

/**
 * The request's services on the database its tenant is placed in (the key's directory entry, read
 * with the key: src/features/auth/keys.ts); the home database stays `services.home`. While the
 * tenant is being moved its reads go on from where its rows are, its writes wait (tenant-moving.ts).
 */
export const tenantDatabase: MiddlewareHandler<AppEnv> = async (c, next) => {
  const principal = c.get("principal");
  if (principal.writesFrozen && !reads(c) && !routeHas(c, ofTheDeployment)) refuseWhileMoving(principal);
  c.set("services", servicesIn(c.get("services"), principal.database));
  await next();
};

/** GET and HEAD, and the POST routes marked `readsOnly` (searches): what a moving tenant may still do. */
const reads = (c: Context<AppEnv>) => c.req.method === "GET" || c.req.method === "HEAD" || routeHas(c, readsOnly);
