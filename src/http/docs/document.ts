/**
 * The OpenAPI 3.1 document, generated from the app's own routes: each route's `describe(...)` and
 * validators (hono-openapi walks `app.routes`), then the statuses the shared middleware answers
 * on every route are added here, so a route declares only what its handler does.
 */
import type { Hono } from "hono";
import { generateSpecs } from "hono-openapi";
import type { OpenAPIV3_1 } from "openapi-types";
import { ALWAYS_OK, type ErrorStatus, ERROR_MEANINGS, ErrorEnvelope, REQUEST_EXAMPLE, TAGS } from "../openapi/describe";
import { PROVIDER_SIGNATURE_SCHEMES } from "./helpdesks";
import { IDEMPOTENT_MARKER } from "../idempotency";
import { z } from "zod";

export type OpenApiDocument = OpenAPIV3_1.Document;
/** Any Hono app, whatever its Env and schema: only its registered routes are read. */
export type RoutedApp = Pick<Hono, "routes">;

const INFO = {
  title: "Recall API",
  version: "0.1.0",
  description: [
    "Question memory and FAQ retrieval at the edge: remember what each user asked, find it again by meaning or keyword, answer from an FAQ knowledge base, and avoid asking the same thing twice.",
    "",
    "Every route but the public ones takes `Authorization: Bearer <key>`; a key belongs to one tenant and no query crosses tenants (another tenant's id is a 404). The ticket webhook is signed with HMAC instead (see its operation).",
    "",
    "Every error is `{ error: { code, message, requestId, details? } }`. Unknown fields are rejected, not ignored. Every response carries the service's own `x-request-id` (also the envelope's `requestId`); a caller's `x-request-id` is never adopted: when it is 1–128 characters of `[A-Za-z0-9._:-]` it is echoed as `x-client-request-id` and logged next to ours. Every API response carries `Cache-Control: no-store` and `X-Content-Type-Options: nosniff`.",
    "",
    "Read your own writes: a response whose request reached the database carries `x-recall-bookmark`, the position in the database its request saw or wrote, sealed (it shows nothing and changes at every answer). Send the last one you received back as `x-recall-bookmark` on your next request and it reads at least that, even from a read replica (the typed client does this for you); with requests side by side, send every one you hold, comma-separated, and keep only the answer's. A value that is not a bookmark is ignored. List cursors are sealed too.",
  ].join("\n"),
};

const RETRY_AFTER = {
  description: "Seconds until the rate-limit window ends (1..60): retry after that",
  schema: { type: "integer", minimum: 1, maximum: 60 },
} as const;

const BODY_METHODS = new Set(["post", "put", "patch"]);
const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"] as const;

const errorRef = (status: ErrorStatus) => ({ $ref: `#/components/responses/E${status}` });

/** The statuses the middleware can answer on an operation it runs before (src/http/middleware/, errors.ts). */
function standardErrors(method: string, op: OpenAPIV3_1.OperationObject): ErrorStatus[] {
  if ((op as Record<string, unknown>)[ALWAYS_OK] === true) return [500];
  const bearer = op.security === undefined; // the document's default security is the Bearer key
  const signed = (op.security?.length ?? 0) > 0; // webhooks: counted per address and tenant (rate-limit.ts)
  const hasInput = (op.parameters?.length ?? 0) > 0 || op.requestBody !== undefined;
  return [
    ...(hasInput && !(bearer && BODY_METHODS.has(method)) ? [400 as const] : []),
    ...(bearer ? [401 as const] : []),
    // jsonBodies: a body that is not UTF-8 (400), too large (413), not JSON (415).
    ...(bearer && BODY_METHODS.has(method) ? [400 as const, 413 as const, 415 as const] : []),
    ...(bearer || signed ? [429 as const] : []),
    500 as const,
    503 as const,
  ];
}

/** Adds the standard error responses and places the request example; returns the statuses it referenced. */
function finishOperation(method: string, op: OpenAPIV3_1.OperationObject & { [REQUEST_EXAMPLE]?: unknown }): ErrorStatus[] {
  op.responses ??= {};
  describeIdempotency(op);
  const referenced = standardErrors(method, op).filter((status) => !op.responses![status]);
  for (const status of referenced) op.responses[status] = errorRef(status);
  const example = op[REQUEST_EXAMPLE];
  delete op[REQUEST_EXAMPLE];
  const json = op.requestBody && "content" in op.requestBody ? op.requestBody.content["application/json"] : undefined;
  if (example !== undefined && json) json.example = example;
  // jsonBodies lets a Bearer route's POST/PUT/PATCH come with no body at all, read as {}: where {}
  // is valid (every field optional), the body is optional too (found by npm run fuzz).
  const schema = json?.schema as OpenAPIV3_1.SchemaObject | undefined;
  if (
    op.requestBody &&
    "content" in op.requestBody &&
    op.security === undefined &&
    BODY_METHODS.has(method) &&
    schema?.type === "object" &&
    !schema.required?.length
  ) {
    op.requestBody.required = false;
  }
  return referenced;
}

const IDEMPOTENCY_CONFLICT =
  "IDEMPOTENCY_KEY_REUSED: the Idempotency-Key was sent before with another request; IDEMPOTENCY_IN_PROGRESS: its first request is still running (retry after Retry-After)";

/** An operation behind the idempotent middleware (src/http/idempotency.ts) can also answer its two 409s. */
function describeIdempotency(op: OpenAPIV3_1.OperationObject & { [IDEMPOTENT_MARKER]?: boolean }): void {
  if (op[IDEMPOTENT_MARKER] !== true) return;
  delete op[IDEMPOTENT_MARKER];
  const own = op.responses![409] as OpenAPIV3_1.ResponseObject | undefined;
  op.responses![409] = own
    ? { ...own, description: `${own.description}; ${IDEMPOTENCY_CONFLICT}` }
    : { description: IDEMPOTENCY_CONFLICT, content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } } };
}

/** Generates the document from the app's registered routes. */
export async function buildOpenApiDocument(app: RoutedApp): Promise<OpenApiDocument> {
  const document = (await generateSpecs(app as Hono, {
    defaultValidationErrorResponse: false,
    excludeStaticFile: false,
    documentation: {
      info: INFO,
      // Relative: the document is served by the API it describes (and `npm start` prints the local origin).
      servers: [{ url: "/", description: "The Worker serving this document" }],
      tags: Object.entries(TAGS).map(([name, description]) => ({ name, description })),
      security: [{ bearer: [] }],
      components: {
        securitySchemes: {
          bearer: {
            type: "http",
            scheme: "bearer",
            description: "An API key: `Authorization: Bearer rk_…`. Admin routes need an admin key.",
          },
          webhookSignature: {
            type: "apiKey",
            in: "header",
            name: "X-Recall-Signature",
            description:
              'Ticket webhooks: `X-Recall-Signature: v1=<hex HMAC-SHA256(secret, timestamp + "." + rawBody)>` with `X-Recall-Timestamp` (unix seconds, ±5 min) and `X-Recall-Tenant`. Secrets come from POST /v1/admin/webhook-secrets.',
          },
          // POST /v1/webhooks/tickets/{provider}/{connectionId}: each helpdesk signs its own way.
          ...PROVIDER_SIGNATURE_SCHEMES,
        },
      },
    },
  })) as OpenApiDocument;
  // The envelope has an id, so zod puts it under $defs and refers to it.
  const generated = z.toJSONSchema(ErrorEnvelope, { io: "input" });
  const errorSchema = generated.$defs?.Error ?? generated;
  document.components ??= {};
  document.components.schemas = { ...document.components.schemas, Error: errorSchema as OpenAPIV3_1.SchemaObject };
  const used = new Set<ErrorStatus>();
  for (const item of Object.values(document.paths ?? {})) {
    for (const method of METHODS) {
      const op = item?.[method];
      if (op) finishOperation(method, op).forEach((status) => used.add(status));
    }
  }
  document.components.responses = Object.fromEntries(
    [...used].sort().map((status) => [
      `E${status}`,
      {
        description: ERROR_MEANINGS[status],
        ...(status === 429 ? { headers: { "Retry-After": RETRY_AFTER } } : {}),
        content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
      },
    ]),
  );
  return document;
}

const built = new WeakMap<object, Promise<OpenApiDocument>>();

/** The document of this app, generated once per isolate. */
export function openApiDocument(app: RoutedApp): Promise<OpenApiDocument> {
  let document = built.get(app);
  if (!document) {
    document = buildOpenApiDocument(app);
    built.set(app, document);
  }
  return document;
}
