/**
 * What every /ui handler gets: the session (the user's API key, sealed in the cookie), the
 * principal it resolves to, and `api`, which calls this Worker's own /v1 routes in-process with
 * that key, so the screens reuse the API's validation, authorization and domain code unchanged.
 */
import type { Context } from "hono";
import type { AppEnv } from "../http/context";
import { notInApiDocument } from "../http/openapi/describe";
import { forwardRequestId } from "../http/request-id";
import type { Session } from "./session";

type HonoExecutionContext = Context["executionCtx"];
export type AppFetch = (request: Request, env: Env, ctx?: HonoExecutionContext) => Response | Promise<Response>;

/** The request's execution context (absent when the app is called without one, as some tests do). */
function executionContextOf(c: UiContext): HonoExecutionContext | undefined {
  try {
    return c.executionCtx;
  } catch {
    return undefined;
  }
}

export interface UiEnv {
  Bindings: Env;
  Variables: AppEnv["Variables"] & { session: Session; appFetch: AppFetch };
}

export type UiContext = Context<UiEnv>;

export interface FieldIssue {
  path: string;
  message: string;
}

/** DUPLICATE_FAQ's envelope names the FAQ that already asks the question. */
export interface DuplicateOf {
  id: string;
  question: string;
  similarity: number;
}

export type ApiResult<T> =
  | { ok: true; status: number; data: T }
  | { ok: false; status: number; code: string; message: string; details: FieldIssue[]; duplicateOf?: DuplicateOf };

export class ApiUnauthorized extends Error {}

/** Calls /v1 in-process as the signed-in user. A 401 (key revoked meanwhile) ends the session. */
export async function api<T = Record<string, unknown>>(c: UiContext, method: string, path: string, body?: unknown): Promise<ApiResult<T>> {
  const headers: Record<string, string> = { authorization: `Bearer ${c.get("session").key}` };
  if (body !== undefined) headers["content-type"] = "application/json";
  const request = forwardRequestId(
    new Request(new URL(path, c.req.url), { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) }),
    c.get("requestId"),
  );
  const response = await c.get("appFetch")(request, c.env, executionContextOf(c));
  if (response.status === 401) throw new ApiUnauthorized();
  const text = await response.text();
  const json = text ? (JSON.parse(text) as unknown) : null;
  // Rate limited: no page or form can go on; the error page says how long to wait (routes.tsx).
  if (response.status === 429) {
    const message = (json as { error?: { message?: string } } | null)?.error?.message ?? "Too many requests";
    throw new UiFailure(429, message, Number(response.headers.get("retry-after")) || undefined);
  }
  if (response.ok) return { ok: true, status: response.status, data: json as T };
  const error = (json as { error?: { code: string; message: string; details?: unknown; duplicateOf?: DuplicateOf } } | null)?.error;
  const details = Array.isArray(error?.details) ? (error.details as FieldIssue[]) : [];
  return {
    ok: false,
    status: response.status,
    code: error?.code ?? "INTERNAL",
    message: error?.message ?? "Something went wrong",
    details,
    ...(error?.duplicateOf ? { duplicateOf: error.duplicateOf } : {}),
  };
}

/** Like `api` but a failure is thrown (rendered as an error page): for reads a page cannot do without. */
export async function apiData<T>(c: UiContext, path: string): Promise<T> {
  const result = await api<T>(c, "GET", path);
  if (!result.ok) throw new UiFailure(result.status, result.message);
  return result.data;
}

export class UiFailure extends Error {
  constructor(
    readonly status: number,
    message: string,
    /** A 429's Retry-After (seconds), passed on to the browser. */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
  }
}

/** Marks a /ui route: an HTML screen (or its asset) for people, not part of the JSON API and its document. */
export const screen = notInApiDocument("An HTML screen of the Recall UI (forms, redirects, a session cookie), not part of the JSON API.");

export const isFragment = (c: UiContext) => c.req.header("x-recall-fragment") === "1";

export function viewerOf(c: UiContext): { role: "client" | "admin"; csrf: string } {
  return { role: c.get("principal").role, csrf: c.get("session").csrf };
}

/** After a form post: back to the page (plain form) or 204 (the client script's background post). */
export function done(c: UiContext, to: string) {
  return isFragment(c) ? c.body(null, 204) : c.redirect(to, 303);
}

/** One form field as a string ("" when absent or a file). */
export async function formField(c: UiContext, name: string): Promise<string> {
  const value = (await c.req.parseBody())[name];
  return typeof value === "string" ? value : "";
}
