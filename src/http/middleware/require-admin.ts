import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../context";
import { AppError } from "../errors";
import { documentsError } from "../openapi/describe";

export const requireAdmin: MiddlewareHandler<AppEnv> = documentsError(async (c, next) => {
  if (c.get("principal").role !== "admin") throw new AppError("FORBIDDEN", "This route needs an admin key");
  await next();
}, 403);
