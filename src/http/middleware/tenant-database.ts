import type { MiddlewareHandler } from "hono";
import { servicesIn } from "../../platform/ports/services";
import type { AppEnv } from "../context";

/**
 * The request's services on the database its tenant is placed in (the key's directory entry, read
 * with the key: src/features/auth/keys.ts); the home database stays `services.home`.
 */
export const tenantDatabase: MiddlewareHandler<AppEnv> = async (c, next) => {
  c.set("services", servicesIn(c.get("services"), c.get("principal").database));
  await next();
};
