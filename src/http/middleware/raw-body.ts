import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../context";
import { AppError } from "../errors";
import { JSON_CONTENT_TYPE, limitBody, utf8Text } from "./body";

export const MAX_WEBHOOK_BODY_BYTES = 256 * 1024;

/**
 * A signed webhook's body, read once and kept as text (`rawBody`), not parsed: its signature covers
 * the exact bytes, and nothing is parsed before it is verified. Held to what every body is (body.ts);
 * with `json`, it must also be sent as application/json (415).
 */
export function rawBody({ maxBytes = MAX_WEBHOOK_BODY_BYTES, json = false } = {}): MiddlewareHandler<AppEnv> {
  const limit = limitBody(maxBytes);
  return async (c, next) => {
    // A body declared too large is a 413 whatever its type.
    const declaredTooLarge = Number(c.req.header("content-length") ?? "0") > maxBytes;
    if (json && !declaredTooLarge && !JSON_CONTENT_TYPE.test(c.req.header("content-type") ?? ""))
      throw new AppError("UNSUPPORTED_MEDIA_TYPE", "Send the body as application/json");
    return limit(c, async () => {
      c.set("rawBody", utf8Text(await c.req.arrayBuffer()));
      await next();
    });
  };
}
