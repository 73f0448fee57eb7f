/**
 * Describing a route for the OpenAPI document: one `describe({...})` middleware per route, next to
 * its validators. The validators document the request (params, query, body: see validation.ts);
 * `describe` adds what they cannot know: the tag, a summary and description, the success
 * responses, and the error statuses the handler itself throws. The statuses the middleware can
 * answer on every route (400, 401, 403, 413, 415, 429, 500, 503) are added by the document (document.ts).
 *
 *   .get("/:id", describe({ tag: "Memories", summary: "Read a memory", description: "…", 200: Memory, errors: [404] }),
 *        validate("param", idParam), handler)
 */
import { describeRoute, resolver, uniqueSymbol } from "hono-openapi";
import type { Env, MiddlewareHandler } from "hono";
import { z, type ZodType } from "zod";
import { errorStatus, type ErrorCode } from "../error-codes";

/** The resources the document groups operations by (one tag each). */
export const TAGS = {
  Health: "Liveness and the active adapters. Public.",
  Reference: "This document and its interactive reference page. Public.",
  Memories: "What each user said or asked: store, read, delete and search by meaning and keyword.",
  Questions: "Similar questions asked before (seed 000), recorded as they are asked.",
  Similarity: "Same question or not: the decision behind dedupe, similar questions, the show's block and the ticket pipeline, explained.",
  Context: "The markdown block an assistant puts in its system prompt: similar questions, facts, memories.",
  Sessions: "What a session touched, for query enrichment.",
  Query: "Query understanding: trivial or searchable, question type, language, keyword expansion.",
  Cards: "Memory cards: entity/slot/value facts extracted from statements.",
  Shows: "Per-show novelty memory for live-show producer tools (seed 004).",
  FAQs: "The FAQ knowledge base (seed 002): FAQs, variants, search, relationships, versions, stats, suggestions.",
  Tickets: "Tickets received by the webhook and what the pipeline decided.",
  Staging: "MERGE and NEW proposals of the ticket pipeline, for review.",
  Pipeline: "Ticket pipeline statistics.",
  Webhooks: "Signed deliveries from a helpdesk (HMAC, not a Bearer key).",
  Helpdesks:
    "Admin: helpdesk connections (Zendesk, Intercom, Front, Help Scout, Freshdesk, Standard Webhooks), their secrets and deliveries.",
  Hooks: "Claude Code's HTTP hook: context for a prompt, files a session touched. Never fails a prompt.",
  Settings: "Admin: the tenant's switches for memory cards and query understanding.",
  Calibration:
    "Admin: the similarity scale the thresholds read, fitted by the deployed Worker on the tenant's own labels; versions, comparison, rollback.",
  Admin: "Admin-key routes: API keys, webhook secrets, backfills, full-text rebuilds, re-embedding, metrics.",
} as const;
export type Tag = keyof typeof TAGS;

/** Every error leaves the API as this envelope (src/http/errors.ts). */
export const ErrorEnvelope = z
  .strictObject({
    error: z.strictObject({
      code: z.enum(Object.keys(errorStatus) as [ErrorCode, ...ErrorCode[]]),
      message: z.string(),
      requestId: z.string(),
      details: z
        .array(z.strictObject({ path: z.string(), message: z.string() }))
        .optional()
        .describe("VALIDATION_FAILED: one entry per bad field ('(root)' for the body as a whole)"),
      duplicateOf: z
        .strictObject({ id: z.string(), question: z.string(), similarity: z.number().min(0).max(1) })
        .optional()
        .describe("DUPLICATE_FAQ: the live FAQ that already asks the question, and how similar (calibrated) the two are"),
    }),
  })
  .meta({ id: "Error", description: "The one error envelope of every error response." });

/** What each error status means on any route; a route may say more in its own errors entry. */
export const ERROR_MEANINGS = {
  400: "INVALID_JSON, VALIDATION_FAILED (details lists the bad fields) or BAD_REQUEST",
  401: "UNAUTHORIZED: no key, an unknown or revoked key (webhooks: any signature mismatch)",
  403: "FORBIDDEN: the route needs an admin key",
  404: "NOT_FOUND: no such resource in the key's tenant (another tenant's id is a 404 too)",
  409: "CONFLICT: the resource's state does not allow this",
  413: "PAYLOAD_TOO_LARGE: the body is over the limit (256 KiB for JSON), counted as it streams",
  415: "UNSUPPORTED_MEDIA_TYPE: the body is not application/json",
  429: "RATE_LIMITED: too many requests from this API key (webhooks: from this address or for this tenant) in the current 60 s window; retry after `Retry-After` seconds",
  500: "INTERNAL: an unexpected fault (logged with the request id; no stack or SQL in the answer)",
  503: "UNAVAILABLE: a dependency is down or the service is misconfigured; retry after the Retry-After header (seconds)",
} as const;
export type ErrorStatus = keyof typeof ERROR_MEANINGS;

export const errorResponse = (status: ErrorStatus, meaning: string = ERROR_MEANINGS[status]) => ({
  description: meaning,
  content: { "application/json": { schema: resolver(ErrorEnvelope) } },
});

type Success = ZodType | null | { schema: ZodType | null; description?: string; example?: unknown; contentType?: string };

export interface RouteDoc {
  tag: Tag;
  summary: string;
  description: string;
  /** Success responses by status: a zod schema of the JSON body, or null for none (204). */
  responses: Partial<Record<200 | 201 | 202 | 204, Success>>;
  /** Error statuses the handler throws itself, with what they mean here (or the generic meaning). */
  errors?: Partial<Record<ErrorStatus, string | true>>;
  /** Public routes take no Bearer key. */
  public?: boolean;
  /** An example request body (the validator documents its schema). */
  requestExample?: unknown;
  /** Anything else of the OpenAPI operation (e.g. header parameters). */
  extra?: Record<string, unknown>;
}

/**
 * Marks an operation that answers 200 to every request (the Claude Code hook: a failure is `{}` with
 * its code in `x-recall-error`): the document adds no standard error status but 500, and the fuzzer
 * does not expect an invalid request to be refused.
 */
export const ALWAYS_OK = "x-recall-always-200";

/** Carries a request example to the document, which moves it next to the validator's body schema. */
export const REQUEST_EXAMPLE = "x-request-example";

const DEFAULT_SUCCESS: Record<number, string> = { 200: "OK", 201: "Created", 202: "Accepted", 204: "Done; no body" };

/** The one-liner: a middleware that validates nothing and carries the route's documentation. */
export function describe(doc: RouteDoc): MiddlewareHandler {
  const responses: Record<string, unknown> = {};
  for (const [status, success] of Object.entries(doc.responses)) {
    const { schema, description, example, contentType } =
      success === null || success instanceof z.ZodType
        ? { schema: success, description: undefined, example: undefined, contentType: undefined }
        : success;
    responses[status] = {
      description: description ?? DEFAULT_SUCCESS[Number(status)] ?? "OK",
      ...(schema
        ? { content: { [contentType ?? "application/json"]: { schema: resolver(schema), ...(example === undefined ? {} : { example }) } } }
        : {}),
    };
  }
  for (const [status, meaning] of Object.entries(doc.errors ?? {})) {
    const code = Number(status) as ErrorStatus;
    responses[status] = errorResponse(code, meaning === true ? ERROR_MEANINGS[code] : `${ERROR_MEANINGS[code].split(":")[0]}: ${meaning}`);
  }
  return describeRoute({
    tags: [doc.tag],
    summary: doc.summary,
    description: doc.description,
    ...(doc.public ? { security: [] } : {}),
    ...(doc.requestExample === undefined ? {} : { [REQUEST_EXAMPLE]: doc.requestExample }),
    ...doc.extra,
    responses: responses as never,
  });
}

/** Marks a middleware (e.g. requireAdmin) as answering `status` on every route it guards. */
export function documentsError<M extends MiddlewareHandler>(middleware: M, status: ErrorStatus): M {
  return Object.assign(middleware, { [uniqueSymbol]: { spec: { responses: { [status]: errorResponse(status) } } } });
}

/** Documents a body the handler reads itself (NDJSON, a signed raw body, an optional body), without validating it. */
export function describeBody(
  schema: ZodType,
  { required = true, mediaType = "application/json", example }: { required?: boolean; mediaType?: string; example?: unknown } = {},
) {
  return describeRoute({
    requestBody: {
      required,
      content: { [mediaType]: { schema: resolver(schema), ...(example === undefined ? {} : { example }) } },
    } as never,
  });
}

/**
 * Documents a JSON body the handler reads itself because it may be absent, and gives it its type:
 * the typed clients (src/client/, the screens) send it as `json`, checked against the schema.
 */
export function describeOptionalJson<T extends ZodType>(schema: T): MiddlewareHandler<Env, string, { in: { json?: z.input<T> } }> {
  return describeBody(schema, { required: false });
}

/**
 * For a route that is not part of the API (an HTML page, a protocol endpoint documented
 * elsewhere): kept out of the document on purpose, with the reason. The contract test accepts
 * such routes; every other served route must be described.
 */
export function notInApiDocument(reason: string): MiddlewareHandler {
  return describeRoute({ hide: true, description: reason });
}
