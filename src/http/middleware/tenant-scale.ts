import type { MiddlewareHandler } from "hono";
import { onTenantScale } from "../../features/calibration/in-force";
import type { AppEnv } from "../context";

/** The request's embedder reads similarities on the tenant's scale in force (src/features/calibration/in-force.ts). */
export const tenantScale: MiddlewareHandler<AppEnv> = async (c, next) => {
  c.set("services", await onTenantScale(c.get("services"), c.get("principal").tenantId));
  await next();
};
