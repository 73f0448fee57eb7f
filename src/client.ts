/**
 * A typed client of the Recall API for TypeScript users: Hono's `hc` over the app's own route
 * types, so requests and answers are checked at compile time against the same declarations the
 * OpenAPI document is generated from.
 *
 *   import { recallClient } from "recall/client";
 *   const api = recallClient("http://127.0.0.1:8787", { headers: { authorization: `Bearer ${key}` } });
 *   const res = await api.v1.memories.search.$post({ json: { scope: "user:42", query: "cat" } });
 *   if (res.ok) for (const m of (await res.json()).results) console.log(m.score, m.content);
 */
import { hc } from "hono/client";
import type { createApp } from "./http/app";

export type AppType = ReturnType<typeof createApp>;

export function recallClient(baseUrl: string, options?: Parameters<typeof hc>[1]) {
  return hc<AppType>(baseUrl, options);
}
export type RecallClient = ReturnType<typeof recallClient>;
