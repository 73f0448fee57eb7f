/** Calls the Worker and checks each answer against the OpenAPI document it serves. */
import { SELF } from "cloudflare:test";
import { type Doc, type Operation, operations, responseProblems } from "../../fuzz/schema";

export interface CheckedCall {
  status: number;
  json: any;
  operationId: string;
  problems: string[];
}

export async function openApiChecker() {
  const doc = (await (await SELF.fetch("https://recall.test/openapi.json")).json()) as Doc;
  const ops = operations(doc).map((o) => ({ ...o, pattern: new RegExp(`^${o.path.replace(/\{[^}]+\}/g, "[^/]+")}$`) }));
  const visited = new Set<string>();

  function operationFor(method: string, path: string): Operation {
    const bare = path.split("?")[0]!;
    const candidates = ops.filter((o) => o.method === method.toLowerCase() && o.pattern.test(bare));
    // The most specific template wins ("/v1/faqs/stats" over "/v1/faqs/{id}").
    candidates.sort((a, b) => (a.path.match(/\{/g)?.length ?? 0) - (b.path.match(/\{/g)?.length ?? 0));
    if (!candidates[0]) throw new Error(`no documented operation for ${method} ${bare}`);
    return candidates[0].op;
  }

  async function call(
    method: string,
    path: string,
    init: { key?: string; body?: unknown; raw?: string; headers?: Record<string, string> } = {},
  ): Promise<CheckedCall> {
    const headers: Record<string, string> = { ...init.headers };
    if (init.key) headers.authorization = `Bearer ${init.key}`;
    if (init.body !== undefined) headers["content-type"] ??= "application/json";
    const response = await SELF.fetch(`https://recall.test${path}`, {
      method,
      headers,
      body: init.raw ?? (init.body === undefined ? undefined : JSON.stringify(init.body)),
    });
    const text = await response.text();
    const type = response.headers.get("content-type");
    const json = text && type?.includes("json") && !type.includes("ndjson") ? JSON.parse(text) : text || null;
    const op = operationFor(method, path);
    visited.add(op.operationId);
    return { status: response.status, json, operationId: op.operationId, problems: responseProblems(op, response.status, type, json) };
  }

  return { doc, call, visited, all: ops.map((o) => o.op.operationId) };
}
