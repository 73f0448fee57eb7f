/**
 * The one error module. Every error leaves the API as
 *   { "error": { "code", "message", "requestId", "details"? } }
 * with the status of its code (error-codes.ts). Unexpected errors are logged with the request id
 * (by class, code and function names: errorFields) and answered as INTERNAL with no stack, SQL or
 * message of their own.
 */
import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { ConstraintViolation, StorageUnavailable } from "../platform/db/errors";
import { DeadlineMissed } from "../platform/deadlines/breaker";
import { errorFields, rootLogger, type Logger } from "../platform/observe/log";
import { StoreUnavailableError } from "../features/faqs/port";
import { ConfigError } from "../platform/observe/config-error";
import type { AppEnv } from "./context";
import { type ErrorCode, errorStatus } from "./error-codes";

export class AppError extends HTTPException {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: unknown,
    /** Seconds the client should wait before retrying, sent as Retry-After (every 503 has one). */
    readonly retryAfterSeconds?: number,
    /** Named fields of the envelope's `error` beyond code and message (ErrorEnvelope documents each: DUPLICATE_FAQ's `duplicateOf`). */
    readonly fields?: Record<string, unknown>,
  ) {
    super(errorStatus[code], { message });
  }
}

/** The code for an HTTPException thrown by Hono itself (e.g. its JSON parser). */
function codeForStatus(status: number): ErrorCode {
  const found = (Object.entries(errorStatus) as [ErrorCode, number][]).find(([, s]) => s === status);
  return found?.[0] ?? (status >= 500 ? "INTERNAL" : "BAD_REQUEST");
}

export function errorBody(code: ErrorCode, message: string, requestId: string, details?: unknown, fields?: Record<string, unknown>) {
  return { error: { code, message, requestId, ...(details === undefined ? {} : { details }), ...fields } };
}

/** Seconds a 503 asks the client to wait (the typed client retries after it: src/client/retry.ts). */
export const UNAVAILABLE_RETRY_AFTER_S = 1;

/** Seconds an overloaded Durable Object asks for: retrying at once would worsen the overload. */
export const OVERLOADED_RETRY_AFTER_S = 10;

/**
 * The runtime flags the errors a later retry may cure: a Durable Object reset (`retryable`) or
 * overloaded (`overloaded`; developers.cloudflare.com/durable-objects/best-practices/error-handling).
 * They are a 503 with Retry-After (seconds), not an INTERNAL; null for any other error.
 */
export function transientRetryAfter(error: Error): number | null {
  const flags = error as Error & { retryable?: unknown; overloaded?: unknown };
  if (flags.overloaded === true) return OVERLOADED_RETRY_AFTER_S;
  return flags.retryable === true ? UNAVAILABLE_RETRY_AFTER_S : null;
}

/** How an error is answered: its code, message and status, and when a retry may succeed. */
interface Answer {
  code: ErrorCode;
  message: string;
  status?: ContentfulStatusCode;
  details?: unknown;
  retryAfterSeconds?: number;
  fields?: Record<string, unknown>;
}

export function handleError(error: Error, c: Context<AppEnv>): Response {
  const { code, message, status = errorStatus[code], details, retryAfterSeconds, fields } = answerFor(error, c.get("log") ?? rootLogger);
  const retryAfter = retryAfterSeconds ?? (status === 503 ? UNAVAILABLE_RETRY_AFTER_S : undefined);
  if (retryAfter !== undefined) c.header("Retry-After", String(retryAfter));
  c.set("errorCode", code);
  return c.json(errorBody(code, message, c.get("requestId") ?? "unknown", details, fields), status);
}

function answerFor(error: Error, log: Logger): Answer {
  if (error instanceof AppError)
    return {
      code: error.code,
      message: error.message,
      status: error.status,
      details: error.details,
      retryAfterSeconds: error.retryAfterSeconds,
      fields: error.fields,
    };
  if (error instanceof HTTPException) {
    const code = codeForStatus(error.status);
    return { code, message: error.message || code, status: error.status };
  }
  if (error instanceof StorageUnavailable) {
    log.warn("storage_unavailable", errorFields(error.cause));
    return { code: "UNAVAILABLE", message: "The database is busy; retry shortly" };
  }
  if (error instanceof StoreUnavailableError) {
    log.warn("store_unavailable", errorFields(error));
    return { code: "STORE_UNAVAILABLE", message: "The FAQ store is unavailable; retry later", retryAfterSeconds: error.retryAfterSeconds };
  }
  if (error instanceof DeadlineMissed) {
    log.warn("deadline_missed", { part: error.part });
    return { code: "UNAVAILABLE", message: `${error.part[0]!.toUpperCase()}${error.part.slice(1)} did not answer in time; retry shortly` };
  }
  const retryAfter = transientRetryAfter(error);
  if (retryAfter !== null) {
    log.warn("transient_error", errorFields(error));
    return { code: "UNAVAILABLE", message: "The service is busy; retry after Retry-After", retryAfterSeconds: retryAfter };
  }
  log.error("unhandled_error", errorFields(error, { stack: true }));
  // A duplicate that no route turned into its own answer (two writes raced to one key).
  if (error instanceof ConstraintViolation && error.constraint === "unique")
    return { code: "CONFLICT", message: "This record already exists" };
  if (error instanceof ConfigError) return { code: "UNAVAILABLE", message: "The service is misconfigured; see its logs" };
  return { code: "INTERNAL", message: "Internal error" };
}
