/**
 * `Idempotency-Key` on creates (issue 19). A client that retries a create (a timeout, a 503) sends
 * the same key; the first answer is replayed instead of creating again.
 *
 * - same key, same request (SHA-256 of method, path and body bytes) → the first answer, with
 *   `Idempotent-Replayed: true`; another request → 409 IDEMPOTENCY_KEY_REUSED;
 * - keys are per tenant and kept 24 h (src/features/idempotency/store.ts; the cron deletes expired ones);
 * - concurrent first requests: one reserves the key (a D1 INSERT on the primary key) and runs; the
 *   others wait up to IN_PROGRESS_WAIT_MS for its answer and replay it, else 409
 *   IDEMPOTENCY_IN_PROGRESS with Retry-After. Waiting answers the common case (a client retrying
 *   after a timeout while the first attempt is still running) without a round trip; the bound keeps
 *   a stuck first request from holding its retries open.
 * - an answer of 5xx or 429 is not kept (the reservation is released): a retry runs the handler again.
 *
 * Runs after authentication and the route's validators (a request refused by them creates nothing
 * and costs no D1 write). Without the header a route behaves as before.
 */
import type { Context, MiddlewareHandler } from "hono";
import { uniqueSymbol } from "hono-openapi";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { completeKey, findKey, releaseKey, reserveKey } from "../features/idempotency/store";
import type { AppEnv } from "./context";
import { AppError } from "./errors";

export const IDEMPOTENCY_HEADER = "Idempotency-Key";
export const REPLAYED_HEADER = "Idempotent-Replayed";
/** 1–255 visible ASCII characters (a UUID is the usual choice). */
export const IDEMPOTENCY_KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;
/** How long a request whose key is held by a running request waits for that answer. */
export const IN_PROGRESS_WAIT_MS = 3000;
/** Seconds a client is told to wait before retrying a key still in progress. */
export const IN_PROGRESS_RETRY_AFTER_S = 1;
/** Answers larger than this are not kept (D1 limits a value to ~2 MB); the key is released instead. */
const MAX_STORED_BODY_CHARS = 1_000_000;

/** Marks an operation as taking the header; document.ts adds its 409 meaning. */
export const IDEMPOTENT_MARKER = "x-recall-idempotent";

const idempotencyParameter = {
  in: "header",
  name: IDEMPOTENCY_HEADER,
  required: false,
  description:
    "Makes a retry safe: the same key with the same request (method, path, body bytes) within 24 h answers the first response again, with `Idempotent-Replayed: true`, and creates nothing. The same key with another request is 409 IDEMPOTENCY_KEY_REUSED; while the first request with the key is still running, a second waits briefly for its answer, else 409 IDEMPOTENCY_IN_PROGRESS with `Retry-After`. Keys are per tenant. A 5xx or 429 answer is not kept, so a retry runs again.",
  schema: { type: "string", minLength: 1, maxLength: 255, pattern: "^[\\x21-\\x7E]{1,255}$" },
  example: "3f2b8c1e-6d4a-4f1b-9a57-0c2d7e9b1a44",
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function requestHash(c: Context<AppEnv>): Promise<string> {
  const url = new URL(c.req.url);
  const head = new TextEncoder().encode(`${c.req.method}\n${url.pathname}${url.search}\n`);
  const body = new Uint8Array(await c.req.arrayBuffer());
  const bytes = new Uint8Array(head.byteLength + body.byteLength);
  bytes.set(head);
  bytes.set(body, head.byteLength);
  const digest = await crypto.subtle.digest("SHA-256", bytes);
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

function replay(c: Context<AppEnv>, record: { status: number | null; content_type: string | null; body: string | null }): Response {
  c.header(REPLAYED_HEADER, "true");
  if (record.content_type) c.header("content-type", record.content_type);
  return c.body(record.body ?? "", (record.status ?? 200) as ContentfulStatusCode);
}

const handler: MiddlewareHandler<AppEnv> = async (c, next) => {
  const key = c.req.header(IDEMPOTENCY_HEADER);
  if (key === undefined) return next();
  if (!IDEMPOTENCY_KEY_PATTERN.test(key)) throw new AppError("BAD_REQUEST", `${IDEMPOTENCY_HEADER} must be 1–255 visible ASCII characters`);
  const { db, clock } = c.get("services");
  const { tenantId } = c.get("principal");
  const hash = await requestHash(c);

  const waitUntil = clock.now() + IN_PROGRESS_WAIT_MS;
  let stamp: number | null = null;
  for (let pause = 50; stamp === null; pause = Math.min(pause * 2, 400)) {
    stamp = await reserveKey(db, tenantId, key, hash, clock.now());
    if (stamp !== null) break;
    const record = await findKey(db, tenantId, key, clock.now());
    if (!record) continue; // released or expired since: reserve again
    if (record.request_hash !== hash) {
      throw new AppError(
        "IDEMPOTENCY_KEY_REUSED",
        `This ${IDEMPOTENCY_HEADER} was used with another request in the last 24 h; send a new key for a new request`,
      );
    }
    if (record.state === "done") return replay(c, record);
    if (clock.now() >= waitUntil) {
      throw new AppError(
        "IDEMPOTENCY_IN_PROGRESS",
        `A request with this ${IDEMPOTENCY_HEADER} is still running; retry after ${IN_PROGRESS_RETRY_AFTER_S} s`,
        undefined,
        IN_PROGRESS_RETRY_AFTER_S,
      );
    }
    await sleep(pause);
  }

  try {
    await next();
  } catch (error) {
    await releaseKey(db, tenantId, key, stamp);
    throw error;
  }
  const status = c.res.status;
  const body = status < 500 && status !== 429 ? await c.res.clone().text() : null;
  if (body === null || body.length > MAX_STORED_BODY_CHARS) {
    await releaseKey(db, tenantId, key, stamp);
    return;
  }
  await completeKey(db, tenantId, key, stamp, { status, contentType: c.res.headers.get("content-type"), body });
};

/** The middleware, carrying its OpenAPI description (the header parameter and the marker for the 409). */
export const idempotent: MiddlewareHandler<AppEnv> = Object.assign(handler, {
  [uniqueSymbol]: { spec: { parameters: [idempotencyParameter], [IDEMPOTENT_MARKER]: true } },
});
