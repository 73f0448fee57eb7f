import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../context";
import { AppError } from "../errors";
import { routeHas, takesNdjson } from "../route-facts";
import { requireText } from "../validation";
import { JSON_CONTENT_TYPE, limitBody, utf8Text } from "./body";

/** Largest JSON body any route accepts; routes may set lower limits on their fields. */
export const MAX_JSON_BODY_BYTES = 256 * 1024;

/** The one exception to JSON bodies: a route marked takesNdjson (the bulk import) takes one object per line, with its own limit. */
export const MAX_NDJSON_BODY_BYTES = 5 * 1024 * 1024;
const NDJSON_CONTENT_TYPE = /^application\/x-ndjson\s*(?:;|$)/i;

/**
 * Requests that carry a body must say it is JSON (415), stay under the size limit (413) and be valid
 * UTF-8 JSON (400) whose strings are all text: no unpaired surrogate (400, validation.ts requireText).
 */
export function jsonBodies(maxBytes = MAX_JSON_BODY_BYTES): MiddlewareHandler<AppEnv> {
  const limit = limitBody(maxBytes);
  const ndjsonLimit = limitBody(MAX_NDJSON_BODY_BYTES);
  return async (c, next) => {
    if (!["POST", "PUT", "PATCH"].includes(c.req.method)) return next();
    const type = c.req.header("content-type") ?? "";
    const ndjsonRoute = routeHas(c, takesNdjson);
    if (NDJSON_CONTENT_TYPE.test(type) && ndjsonRoute) return ndjsonLimit(c, next);
    if (type !== "" && !JSON_CONTENT_TYPE.test(type)) throw new AppError("UNSUPPORTED_MEDIA_TYPE", "Send the body as application/json");
    return limit(c, async () => {
      // Read once (Hono keeps it for the validator). With no content type, only an empty body is
      // accepted (routes like rollback take none): bytes sent without a type would be ignored.
      const bytes = await c.req.arrayBuffer();
      if (type === "" && bytes.byteLength > 0) throw new AppError("UNSUPPORTED_MEDIA_TYPE", "Send the body as application/json");
      const text = utf8Text(bytes);
      // Hono's json() parses its cached text, which it would decode again from the cached bytes
      // through a new Response: the text decoded here is put in its cache (it holds promises,
      // though its type says methods).
      Object.assign(c.req.bodyCache, { text: Promise.resolve(text) });
      // A body is optional on some routes (reembed, ending a show), but one that is sent must be
      // JSON: those routes used to ignore `{not json`.
      if (bytes.byteLength > 0) requireText(parseJson(text, ndjsonRoute));
      await next();
    });
  };
}

function parseJson(text: string, ndjsonRoute: boolean): unknown {
  try {
    return JSON.parse(text);
  } catch {
    // The FAQ import sent as JSON: its lines are each JSON, the whole is not.
    const hint = ndjsonRoute ? ": this route takes one JSON object per line, sent as application/x-ndjson" : "";
    throw new AppError("INVALID_JSON", `The request body is not valid JSON${hint}`);
  }
}
