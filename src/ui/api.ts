/**
 * The screens' way to the API: Hono's typed client over the /v1 routes' own types
 * (src/http/api.ts), sent in-process through the app's fetch with the session's key and this
 * request's id. The screens reuse the API's validation, authorization and domain code unchanged,
 * and a request or answer that no longer fits its route fails to compile instead of at runtime.
 */
import { type ClientResponse, hc, parseResponse } from "hono/client";
import type { ContentfulStatusCode, StatusCode } from "hono/utils/http-status";
import type { z } from "zod";
import type { Api } from "../http/api";
import { executionContextOf } from "../http/dispatch";
import type { ErrorEnvelope } from "../http/openapi/describe";
import { forwardRequestId } from "../http/request-id";
import { type UiContext, UiFailure } from "./context";

type ApiError = z.output<typeof ErrorEnvelope>["error"];
export type FieldIssue = NonNullable<ApiError["details"]>[number];
export type DuplicateOf = NonNullable<ApiError["duplicateOf"]>;

export type ApiResult<T> =
  | { ok: true; status: number; data: T }
  | { ok: false; status: ContentfulStatusCode; code: string; message: string; details: FieldIssue[]; duplicateOf?: DuplicateOf };

export class ApiUnauthorized extends Error {}

/** What a failed call's body says; an answer without the envelope says nothing. */
async function errorOf(response: Pick<Response, "text">): Promise<Partial<ApiError>> {
  const text = await response.text();
  return ((text ? JSON.parse(text) : null) as { error?: ApiError } | null)?.error ?? {};
}

/** The API as the signed-in user. A 401 (key revoked meanwhile) ends the session; a 429 ends the page. */
export function api(c: UiContext) {
  const send = async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = forwardRequestId(new Request(input, init), c.get("requestId"));
    const response = await c.get("dispatch")(request, c.env, executionContextOf(c));
    if (response.status === 401) throw new ApiUnauthorized();
    // No page or form can go on; the error page says how long to wait (routes.tsx).
    if (response.status === 429) {
      const { message = "Too many requests" } = await errorOf(response);
      throw new UiFailure(429, message, Number(response.headers.get("retry-after")) || undefined);
    }
    return response;
  };
  return hc<Api>(new URL("/v1", c.req.url).href, { fetch: send, headers: { authorization: `Bearer ${c.get("session").key}` } });
}

export type ApiClient = ReturnType<typeof api>;

/** A body as a form holds it: a number or a choice may still be the text a person typed. */
type AsTyped<T> = T extends number ? number | string : T extends string ? string : T extends object ? { [K in keyof T]: AsTyped<T[K]> } : T;

/**
 * A form's values as the route's body, for the API's schema to judge: a text where the route
 * wants a number or one of its choices is sent as that text, so the API's own message names the problem beside the
 * field. Every other part is checked against the route's type.
 */
export const formBody = <T>(values: NoInfer<AsTyped<T>>) => values as T;

const succeeded = <T>(status: number, data: T): ApiResult<T> => ({ ok: true, status, data });

/** The API fails with a body, so a status without one is no answer of its (and a page cannot answer it with its text). */
const withBody = (status: StatusCode): ContentfulStatusCode =>
  status === 101 || status === 204 || status === 205 || status === 304 ? 502 : status;

function failed(status: StatusCode, error: Partial<ApiError>): ApiResult<never> {
  return {
    ok: false,
    status: withBody(status),
    code: error.code ?? "INTERNAL",
    message: error.message ?? "Something went wrong",
    details: Array.isArray(error.details) ? error.details : [],
    ...(error.duplicateOf ? { duplicateOf: error.duplicateOf } : {}),
  };
}

/** A call's answer (its JSON; undefined for a 204), or the API's error envelope when it failed. */
export async function apiResult<R extends ClientResponse<unknown>>(call: Promise<R>) {
  const response = await call;
  return response.ok ? succeeded(response.status, await parseResponse(response)) : failed(response.status, await errorOf(response));
}

/** A call's answer, a failure thrown (rendered as an error page): for reads a page cannot do without. */
export async function apiData<R extends ClientResponse<unknown>>(call: Promise<R>) {
  const result = await apiResult(call);
  if (!result.ok) throw new UiFailure(result.status, result.message);
  return result.data;
}
