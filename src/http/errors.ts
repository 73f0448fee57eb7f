/**
 * The one error module. Every error leaves the API as
 *   { "error": { "code", "message", "requestId", "details"? } }
 * with the status of its code. Unexpected errors are logged with the request id and answered
 * as INTERNAL with no stack, SQL or message of their own.
 */
import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { StoreUnavailableError } from "../faqs/port";
import { ConfigError } from "../services";

export const errorStatus = {
  BAD_REQUEST: 400,
  INVALID_JSON: 400,
  VALIDATION_FAILED: 400,
  UNAUTHORIZED: 401,
  /** A helpdesk delivery that fails its provider's verification (which part failed is never said). */
  WEBHOOK_SIGNATURE_INVALID: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  RATE_LIMITED: 429,
  INTERNAL: 500,
  UNAVAILABLE: 503,
  /** The FAQ store's database (Postgres) is unreachable or too slow; Retry-After says when to retry. */
  STORE_UNAVAILABLE: 503,
} as const satisfies Record<string, ContentfulStatusCode>;

export type ErrorCode = keyof typeof errorStatus;

export class AppError extends HTTPException {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: unknown,
  ) {
    super(errorStatus[code], { message });
  }
}

/** The code for an HTTPException thrown by Hono itself (e.g. its JSON parser). */
function codeForStatus(status: number): ErrorCode {
  const found = (Object.entries(errorStatus) as [ErrorCode, number][]).find(([, s]) => s === status);
  return found?.[0] ?? (status >= 500 ? "INTERNAL" : "BAD_REQUEST");
}

export function errorBody(code: ErrorCode, message: string, requestId: string, details?: unknown) {
  return { error: { code, message, requestId, ...(details === undefined ? {} : { details }) } };
}

export function handleError(error: Error, c: Context): Response {
  const requestId = (c.get("requestId") as string | undefined) ?? "unknown";
  if (error instanceof AppError) {
    return c.json(errorBody(error.code, error.message, requestId, error.details), error.status);
  }
  if (error instanceof HTTPException) {
    const code = error.message.startsWith("Malformed JSON") ? "INVALID_JSON" : codeForStatus(error.status);
    return c.json(errorBody(code, error.message || code, requestId), error.status);
  }
  if (error instanceof StoreUnavailableError) {
    console.warn(JSON.stringify({ event: "store_unavailable", requestId, message: error.message, cause: rootCause(error) }));
    c.header("retry-after", String(error.retryAfterSeconds));
    return c.json(errorBody("STORE_UNAVAILABLE", "The FAQ store is unavailable; retry later", requestId), 503);
  }
  console.error(
    JSON.stringify({ event: "unhandled_error", requestId, name: error.name, message: error.message, stack: error.stack }),
  );
  if (error instanceof ConfigError) {
    return c.json(errorBody("UNAVAILABLE", "The service is misconfigured; see its logs", requestId), 503);
  }
  return c.json(errorBody("INTERNAL", "Internal error", requestId), 500);
}

/** The innermost cause's message (a driver error, not a query text with its parameters). */
function rootCause(error: Error): string {
  let e: unknown = error;
  for (let depth = 0; e instanceof Error && e.cause instanceof Error && depth < 5; depth++) e = e.cause;
  return e instanceof Error ? `${e.name}: ${e.message}` : String(e);
}
