/**
 * Every code of the API's error envelope (errors.ts) and the status it is answered with. Apart
 * from errors.ts because the app's context type (context.ts) names a code, and errors.ts needs
 * that context type.
 */
import type { ContentfulStatusCode } from "hono/utils/http-status";

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
  /** The local dev key (RECALL_DEV_API_KEY) is recreated on its next use: revoking it would not stop it. */
  DEV_KEY_PERMANENT: 409,
  /** Approving a NEW staging item whose question a live FAQ asks now; the envelope's `duplicateOf` names that FAQ. */
  DUPLICATE_FAQ: 409,
  /** An Idempotency-Key sent again with another request (src/http/idempotency.ts). */
  IDEMPOTENCY_KEY_REUSED: 409,
  /** An Idempotency-Key whose first request is still running; retry after Retry-After. */
  IDEMPOTENCY_IN_PROGRESS: 409,
  /** A new tenant has no database to go to: every one is past its fill limit for new tenants (src/core/placement/emptiest.ts). */
  DATABASES_FULL: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  RATE_LIMITED: 429,
  INTERNAL: 500,
  UNAVAILABLE: 503,
  /** The FAQ store's database (Postgres) is unreachable or too slow; Retry-After says when to retry. */
  STORE_UNAVAILABLE: 503,
} as const satisfies Record<string, ContentfulStatusCode>;

export type ErrorCode = keyof typeof errorStatus;
