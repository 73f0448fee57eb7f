/**
 * Retries for the typed client (src/client/client.ts). A request is retried when the answer says "try
 * again" — 503 or 429, waiting at least its Retry-After — or when the connection failed before an
 * answer (the local runtime resets kept-alive connections under load: bench/workerd-connection-resets.mjs),
 * with exponential backoff and jitter, a bounded number of attempts.
 *
 * Only safe requests are retried: GET/HEAD/PUT/DELETE/OPTIONS, and any request with an
 * `Idempotency-Key`. The creates that take one (src/http/protocol/idempotent-routes.ts) get a fresh key when the
 * caller sent none, and every attempt sends the same key, so a retry never creates twice.
 */
import { isIdempotentCreate } from "../http/protocol/idempotent-routes";

export interface RetryOptions {
  /** Attempts in all, the first included (default 5; 1 turns retries off). */
  maxAttempts?: number;
  /** First backoff in ms, doubled on each retry (default 100). */
  baseDelayMs?: number;
  /** Longest wait between attempts in ms, Retry-After included (default 5000). */
  maxDelayMs?: number;
  /** Called before each retry (to count or log them). */
  onRetry?: (info: { attempt: number; method: string; url: string; status?: number; error?: unknown; delayMs: number }) => void;
}

type Fetch = (input: RequestInfo | URL, init?: RequestInit) => Promise<Response>;

const RETRY_STATUSES = new Set([429, 503]);
const SAFE_METHODS = new Set(["GET", "HEAD", "PUT", "DELETE", "OPTIONS"]);
export const IDEMPOTENCY_KEY_HEADER = "Idempotency-Key";

/** Retry-After in ms (seconds or an HTTP date); null when absent or unreadable. */
export function retryAfterMs(value: string | null, now = Date.now()): number | null {
  if (value === null || value.trim() === "") return null;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}

/** The wait before retry number `retry` (1-based): backoff with full jitter, at least Retry-After, at most maxDelayMs. */
export function retryDelayMs(
  retry: number,
  retryAfter: number | null,
  { baseDelayMs = 100, maxDelayMs = 5000 }: RetryOptions = {},
  random = Math.random,
): number {
  const backoff = baseDelayMs * 2 ** (retry - 1);
  const jittered = backoff / 2 + random() * (backoff / 2);
  return Math.min(maxDelayMs, Math.max(retryAfter ?? 0, jittered));
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Wraps `fetchImpl` with the retries above. */
export function retryingFetch(fetchImpl: Fetch = (input, init) => fetch(input, init), options: RetryOptions = {}): Fetch {
  const maxAttempts = Math.max(1, options.maxAttempts ?? 5);
  return async (input, init) => {
    const first = new Request(input, init);
    const headers = new Headers(first.headers);
    const path = new URL(first.url).pathname;
    if (!headers.has(IDEMPOTENCY_KEY_HEADER) && isIdempotentCreate(first.method, path))
      headers.set(IDEMPOTENCY_KEY_HEADER, crypto.randomUUID());
    const retryable = SAFE_METHODS.has(first.method) || headers.has(IDEMPOTENCY_KEY_HEADER);
    // The body is read once, so every attempt sends the same bytes.
    const body = first.body === null ? null : await first.arrayBuffer();
    const attemptInit = (): RequestInit => ({
      method: first.method,
      headers,
      body,
      redirect: first.redirect,
      signal: init?.signal ?? null,
    });
    for (let attempt = 1; ; attempt++) {
      const last = !retryable || attempt >= maxAttempts;
      let response: Response;
      try {
        response = await fetchImpl(first.url, attemptInit());
      } catch (error) {
        if (last || init?.signal?.aborted) throw error;
        const delayMs = retryDelayMs(attempt, null, options);
        options.onRetry?.({ attempt, method: first.method, url: first.url, error, delayMs });
        await sleep(delayMs);
        continue;
      }
      if (last || !RETRY_STATUSES.has(response.status)) return response;
      const delayMs = retryDelayMs(attempt, retryAfterMs(response.headers.get("retry-after")), options);
      await response.body?.cancel();
      options.onRetry?.({ attempt, method: first.method, url: first.url, status: response.status, delayMs });
      await sleep(delayMs);
    }
  };
}
