import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../context";
import { AppError } from "../errors";

/**
 * A path that is not valid percent-encoding is refused. Hono leaves such a segment undecoded, so
 * "/v1/sessions/%ED%A0%80/files" recorded files under the literal text "%ED%A0%80" (found by
 * npm run fuzz).
 */
export const decodablePath: MiddlewareHandler<AppEnv> = async (c, next) => {
  try {
    decodeURIComponent(new URL(c.req.url).pathname);
  } catch {
    throw new AppError("BAD_REQUEST", "The request path is not valid percent-encoding");
  }
  await next();
};
