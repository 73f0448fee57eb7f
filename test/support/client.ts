import { SELF } from "cloudflare:test";
import type { ClientResponse } from "hono/client";
import { expect } from "vitest";
import type { z } from "zod";
import { recallClient, type RetryOptions } from "../../src/client/client";
import type { ErrorCode } from "../../src/http/error-codes";
import type { ErrorEnvelope } from "../../src/http/openapi/describe";

/** The typed client (src/client/client.ts) over this Worker's real fetch handler: answers typed by the routes. */
export function apiClient(key?: string | null, headers: Record<string, string> = {}, retry?: RetryOptions) {
  return recallClient("https://recall.test", {
    fetch: (input: RequestInfo | URL, init?: RequestInit) => SELF.fetch(input, init),
    headers: key ? { authorization: `Bearer ${key}`, ...headers } : headers,
    ...(retry ? { retry } : {}),
  });
}

export type TestClient = ReturnType<typeof apiClient>;

/**
 * One attempt per request: the client gives back each answer as the Worker gave it (a 503 or 429
 * is not retried), for the tests that assert the protocol of a single request.
 */
export const oneAttempt: RetryOptions = { maxAttempts: 1 };

type AnyClientResponse = ClientResponse<unknown, number, string>;
/** The JSON body a route declares for one of its statuses. */
export type JsonOf<R, S extends number> =
  R extends ClientResponse<infer T, infer U, infer F> ? (S extends U ? (F extends "json" ? T : never) : never) : never;

/** Asserts the answer's status (or one of them) and returns its body as the route declares it for that status. */
export async function expectJson<R extends AnyClientResponse, S extends R["status"]>(
  response: R | Promise<R>,
  status: S | readonly S[],
): Promise<JsonOf<R, S>> {
  const res = await response;
  const text = await res.text();
  if (Array.isArray(status)) expect(status, text.slice(0, 500)).toContain(res.status);
  else expect(res.status, text.slice(0, 500)).toBe(status);
  return JSON.parse(text) as JsonOf<R, S>;
}

export type ApiError = z.infer<typeof ErrorEnvelope>;

/** Asserts an error answer (status, and code when given) and returns its envelope, typed as the document declares it. */
export async function expectError(
  response: Response | AnyClientResponse | Promise<Response | AnyClientResponse>,
  status: number,
  code?: ErrorCode,
): Promise<ApiError> {
  const res = await response;
  const text = await res.text();
  expect(res.status, text.slice(0, 500)).toBe(status);
  const body = JSON.parse(text) as ApiError;
  expect(body.error).toMatchObject({ code: code ?? expect.any(String), message: expect.any(String), requestId: expect.any(String) });
  return body;
}

/**
 * Request options carrying a JSON body for a route that reads its optional body itself
 * (describeBody, not validate): the client has no `json` input for those.
 */
export function optionalJsonBody(body: unknown) {
  return { headers: { "content-type": "application/json" }, init: { body: JSON.stringify(body) } };
}
