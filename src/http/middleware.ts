import type { MiddlewareHandler } from "hono";
import { loadSealingKey } from "./sealed";
import { onTenantScale, scaleAlongsideKey } from "../features/calibration/in-force";
import { ensureDevKey, findPrincipal, type Principal } from "../features/auth/keys";
import type { Defer } from "../platform/ports/services";
import type { Services } from "../platform/ports/services";
import type { AppEnv } from "./context";
import { bindTenant } from "./access-log";
import { afterResponse } from "./log";
import { rootLogger } from "../platform/observe/log";
import { AppError } from "./errors";
import { documentsError } from "./openapi/describe";
import { requireText } from "./validation";

/** Largest JSON body any route accepts; routes may set lower limits on their fields. */
export const MAX_JSON_BODY_BYTES = 256 * 1024;

const JSON_CONTENT_TYPE = /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i;

/** The one exception to JSON bodies: bulk import takes NDJSON (one object per line), with its own limit. */
export const NDJSON_ROUTES: readonly RegExp[] = [/^\/v1\/faqs\/import\/?$/];
export const MAX_NDJSON_BODY_BYTES = 5 * 1024 * 1024;
const NDJSON_CONTENT_TYPE = /^application\/x-ndjson\s*(?:;|$)/i;

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
function limitTo(maxSize: number): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const stream = c.req.raw.body;
    if (!stream) return next();
    // A declared length within the limit (what clients send): one native read, kept by Hono for
    // the routes, instead of a JS loop over the chunks and a rebuilt Request (measured ~0.5 ms a request).
    const declared = Number(c.req.header("content-length") ?? Number.NaN);
    if (Number.isSafeInteger(declared) && declared >= 0 && declared <= maxSize) {
      const { byteLength } = await c.req.arrayBuffer();
      if (byteLength > maxSize) throw new AppError("PAYLOAD_TOO_LARGE", `The request body is larger than ${maxSize} bytes`);
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
    if (size > maxSize) throw new AppError("PAYLOAD_TOO_LARGE", `The request body is larger than ${maxSize} bytes`);
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

/**
 * Requests that carry a body must say it is JSON (415), stay under the size limit (413) and be valid
 * UTF-8 JSON (400) whose strings are all text: no unpaired surrogate (400, validation.ts requireText).
 */
export function jsonBodies(maxBytes = MAX_JSON_BODY_BYTES): MiddlewareHandler<AppEnv> {
  const limit = limitTo(maxBytes);
  const ndjsonLimit = limitTo(MAX_NDJSON_BODY_BYTES);
  return async (c, next) => {
    if (!["POST", "PUT", "PATCH"].includes(c.req.method)) return next();
    const type = c.req.header("content-type") ?? "";
    const takesNdjson = NDJSON_ROUTES.some((route) => route.test(c.req.path));
    if (NDJSON_CONTENT_TYPE.test(type) && takesNdjson) return ndjsonLimit(c, next);
    if (type !== "" && !JSON_CONTENT_TYPE.test(type)) throw new AppError("UNSUPPORTED_MEDIA_TYPE", "Send the body as application/json");
    return limit(c, async () => {
      // Read once (Hono keeps it for the validator). With no content type, only an empty body is
      // accepted (routes like rollback take none): bytes sent without a type would be ignored.
      const bytes = await c.req.arrayBuffer();
      if (type === "" && bytes.byteLength > 0) throw new AppError("UNSUPPORTED_MEDIA_TYPE", "Send the body as application/json");
      requireUtf8(bytes);
      // A body is optional on some routes (reembed, ending a show), but one that is sent must be
      // JSON: those routes used to ignore `{not json`. Hono caches the parse for the validator.
      if (bytes.byteLength > 0) requireText(await requireJson(c.req.json(), takesNdjson));
      await next();
    });
  };
}

async function requireJson(parsed: Promise<unknown>, takesNdjson: boolean): Promise<unknown> {
  try {
    return await parsed;
  } catch {
    // The FAQ import sent as JSON: its lines are each JSON, the whole is not.
    const hint = takesNdjson ? ": this route takes one JSON object per line, sent as application/x-ndjson" : "";
    throw new AppError("INVALID_JSON", `The request body is not valid JSON${hint}`);
  }
}

const UTF8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/**
 * JSON is UTF-8 (RFC 8259). Without this check, bytes that are not UTF-8 were decoded to U+FFFD
 * and stored: the API kept different text than the client sent (found by npm run fuzz).
 */
function requireUtf8(bytes: ArrayBuffer): void {
  try {
    UTF8.decode(bytes);
  } catch {
    throw new AppError("BAD_REQUEST", "The request body is not valid UTF-8");
  }
}

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

const BEARER = /^Bearer\s+(\S{1,256})\s*$/i;

/** Bearer API key → principal (tenant, role). Local mode also knows the dev key (RECALL_DEV_API_KEY). */
export function authenticate(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const match = BEARER.exec(c.req.header("authorization") ?? "");
    if (!match) throw new AppError("UNAUTHORIZED", "Send an API key as 'Authorization: Bearer <key>'");
    // The sealing key (cursors: sealed.ts), read once per isolate, lands beside the key's lookup: no round trip of its own.
    const keyRead = c.get("sealingKeyRead") ?? loadSealingKey(c.env.DB);
    const [principal] = await Promise.all([principalForKey(c.get("services"), c.env, match[1]!), keyRead]);
    if (!principal) throw new AppError("UNAUTHORIZED", "The API key is not valid");
    c.set("principal", principal);
    bindTenant(c, principal.tenantId);
    await next();
  };
}

/** The principal of an API key (null: unknown or revoked). Also used by /ui to check a pasted key. */
export async function principalForKey(
  { db, clock, embedder, log }: Pick<Services, "db" | "clock"> & Partial<Pick<Services, "embedder" | "log">>,
  env: Env,
  key: string,
): Promise<Principal | null> {
  const devKey = env.RECALL_DEV_API_KEY;
  const isDevKey = devKey !== undefined && key === devKey;
  // The local dev key is never cached: its tenant is created on demand in whatever database is current.
  // Another key this isolate has not seen is read with its tenant's scale in force, in one round trip.
  const alongside = isDevKey || !embedder ? undefined : scaleAlongsideKey(db, embedder.model, clock.now(), log ?? rootLogger);
  const principal = await findPrincipal(db, key, clock.now(), !isDevKey, alongside);
  if (principal || !isDevKey) return principal;
  await ensureDevKey(db, devKey, clock.now());
  return findPrincipal(db, key, clock.now(), false);
}

/** The request's embedder reads similarities on the tenant's scale in force (src/features/calibration/in-force.ts). */
export const tenantScale: MiddlewareHandler<AppEnv> = async (c, next) => {
  c.set("services", await onTenantScale(c.get("services"), c.get("principal").tenantId));
  await next();
};

export const requireAdmin: MiddlewareHandler<AppEnv> = documentsError(async (c, next) => {
  if (c.get("principal").role !== "admin") throw new AppError("FORBIDDEN", "This route needs an admin key");
  await next();
}, 403);
