/**
 * What every request body is held to, whichever middleware reads it (json-bodies.ts, raw-body.ts):
 * a size counted as it streams, and UTF-8.
 */
import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../context";
import { AppError } from "../errors";

export const JSON_CONTENT_TYPE = /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i;

/**
 * Past the limit, the rest of the body is still read (and dropped) up to this many bytes in all
 * before the 413 goes out: answering while the client is still sending made the runtime reset the
 * connection (a client saw ECONNRESET, or behind `wrangler dev` a plain-text 503, instead of the
 * 413). A body larger still is cut off; memory stays bounded by the limit either way.
 */
export const MAX_DRAINED_BODY_BYTES = 16 * 1024 * 1024;

/**
 * Counts the body as it streams, declared length or not, keeping at most `maxSize` bytes: over
 * it, a 413 in the envelope. (hono/body-limit answered while the rest was unread; see above.)
 */
export function limitBody(maxSize: number): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const stream = c.req.raw.body;
    if (!stream) return next();
    // A declared length within the limit (what clients send): one native read, kept by Hono for
    // the routes, instead of a JS loop over the chunks and a rebuilt Request (measured ~0.5 ms a request).
    const declared = Number(c.req.header("content-length") ?? Number.NaN);
    if (Number.isSafeInteger(declared) && declared >= 0 && declared <= maxSize) {
      const { byteLength } = await c.req.arrayBuffer();
      if (byteLength > maxSize) throw tooLarge(maxSize);
      return next();
    }
    const reader = stream.getReader();
    const chunks: Uint8Array[] = [];
    let size = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size <= maxSize) chunks.push(value);
      else if (size > MAX_DRAINED_BODY_BYTES) {
        await reader.cancel();
        break;
      }
    }
    if (size > maxSize) throw tooLarge(maxSize);
    const body = new Uint8Array(size);
    let offset = 0;
    for (const chunk of chunks) {
      body.set(chunk, offset);
      offset += chunk.byteLength;
    }
    c.req.raw = new Request(c.req.raw, { body });
    await next();
  };
}

const tooLarge = (maxSize: number) => new AppError("PAYLOAD_TOO_LARGE", `The request body is larger than ${maxSize} bytes`);

const UTF8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false });

/**
 * The body as text, a leading byte order mark dropped. JSON is UTF-8 (RFC 8259): without this
 * check, bytes that are not UTF-8 were decoded to U+FFFD and stored, so the API kept different text
 * than the client sent (found by npm run fuzz).
 */
export function utf8Text(bytes: ArrayBuffer): string {
  try {
    return UTF8.decode(bytes);
  } catch {
    throw new AppError("BAD_REQUEST", "The request body is not valid UTF-8");
  }
}
