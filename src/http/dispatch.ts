/**
 * In-process calls to the app's own routes, as the caller: same API key, same request id. The
 * hook and MCP adapters go through the routes rather than the aggregates, so validation, error
 * codes, metrics and logging are exactly the API's.
 */
import type { Context, ExecutionContext } from "hono";
import type { AppEnv } from "./context";
import type { ErrorCode } from "./error-codes";
import { forwardRequestId } from "./request-id";

/** The app's fetch, bound late (the adapters are mounted inside the app they call). */
export type Dispatch = (request: Request, env: Env, executionCtx: ExecutionContext | undefined) => Response | Promise<Response>;

export type ApiResult =
  { ok: true; status: number; body: unknown } | { ok: false; status: number; code: ErrorCode; message: string; body: unknown };

export function executionContextOf(c: Pick<Context, "executionCtx">): ExecutionContext | undefined {
  try {
    return c.executionCtx;
  } catch {
    return undefined; // app.fetch called without one (some tests)
  }
}

/** Calls `method path` with a JSON body (or none) and reads the JSON answer or error envelope. */
export async function callApi(c: Context<AppEnv>, dispatch: Dispatch, method: string, path: string, body?: unknown): Promise<ApiResult> {
  const headers = new Headers();
  const authorization = c.req.header("authorization");
  if (authorization !== undefined) headers.set("authorization", authorization);
  if (body !== undefined) headers.set("content-type", "application/json");
  const request = forwardRequestId(
    new Request(new URL(path, c.req.url), { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) }),
    c.get("requestId"),
  );
  const response = await dispatch(request, c.env, executionContextOf(c));
  const text = await response.text();
  const parsed: unknown = text === "" ? null : JSON.parse(text);
  if (response.ok) return { ok: true, status: response.status, body: parsed };
  const error = (parsed as { error?: { code?: ErrorCode; message?: string } } | null)?.error;
  return {
    ok: false,
    status: response.status,
    code: error?.code ?? "INTERNAL",
    message: error?.message ?? `HTTP ${response.status}`,
    body: parsed,
  };
}
