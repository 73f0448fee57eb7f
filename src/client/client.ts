/**
 * A typed client of the Recall API for TypeScript users: Hono's `hc` over the app's own route
 * types, so requests and answers are checked at compile time against the same declarations the
 * OpenAPI document is generated from.
 *
 *   import { recallClient } from "recall/client";
 *   const api = recallClient("http://127.0.0.1:8787", { headers: { authorization: `Bearer ${key}` } });
 *   const res = await api.v1.memories.search.$post({ json: { scope: "user:42", query: "cat" } });
 *   if (res.ok) for (const m of (await res.json()).results) console.log(m.score, m.content);
 *
 * It retries 503 and 429 (after Retry-After) and failed connections, with backoff, a bounded number
 * of times, and only where safe: the creates get an Idempotency-Key (the caller's, or a fresh one)
 * sent on every attempt (src/client/retry.ts). `retry: { maxAttempts: 1 }` turns that off.
 *
 * It reads its own writes: it sends back the latest `x-recall-bookmark` it was answered, so a read
 * served by a D1 read replica still sees what this client wrote before (src/http/protocol/bookmark.ts).
 */
import { hc } from "hono/client";
import { carryBookmarks } from "../http/protocol/bookmark";
import { type RetryOptions, retryingFetch } from "./retry";
import type { createApp } from "../app/app";

export type AppType = ReturnType<typeof createApp>;
export type { RetryOptions } from "./retry";

export function recallClient(baseUrl: string, options: Parameters<typeof hc>[1] & { retry?: RetryOptions } = {}) {
  const { retry, fetch: fetchImpl, ...rest } = options;
  const send = fetchImpl ? async (input: RequestInfo | URL, init?: RequestInit) => fetchImpl(input, init) : undefined;
  return hc<AppType>(baseUrl, { ...rest, fetch: carryBookmarks(retryingFetch(send, retry)) });
}
export type RecallClient = ReturnType<typeof recallClient>;
