import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../context";
import { AppError } from "../errors";
import { documentsError } from "../openapi/describe";

/** The deployment's own routes (tenants, databases): an admin key of the operator's tenant (OPERATOR_TENANT) only. */
export const requireOperator: MiddlewareHandler<AppEnv> = documentsError(async (c, next) => {
  const { role, tenantId } = c.get("principal");
  if (role !== "admin" || !c.env.OPERATOR_TENANT || c.env.OPERATOR_TENANT !== tenantId) {
    throw new AppError("FORBIDDEN", "Only an admin key of the operator's tenant (OPERATOR_TENANT) manages tenants and databases");
  }
  await next();
}, 403);
