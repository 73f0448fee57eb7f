import { describe, expect, it } from "vitest";
import { retryAfterMs, retryDelayMs } from "../../src/client/retry";
import { isIdempotentCreate } from "../../src/http/protocol/idempotent-routes";

describe("retryAfterMs", () => {
  it("reads seconds and HTTP dates, and nothing from an absent or unreadable value", () => {
    expect(retryAfterMs("2")).toBe(2000);
    expect(retryAfterMs("0")).toBe(0);
    expect(retryAfterMs(new Date(10_000).toUTCString(), 4000)).toBe(6000);
    expect(retryAfterMs(null)).toBeNull();
    expect(retryAfterMs("soon")).toBeNull();
  });
});

describe("retryDelayMs", () => {
  it("doubles the backoff per retry, with jitter in its upper half, capped", () => {
    const options = { baseDelayMs: 100, maxDelayMs: 1000 };
    expect(retryDelayMs(1, null, options, () => 0)).toBe(50);
    expect(retryDelayMs(1, null, options, () => 1)).toBe(100);
    expect(retryDelayMs(3, null, options, () => 1)).toBe(400);
    expect(retryDelayMs(10, null, options, () => 1)).toBe(1000);
  });

  it("waits at least Retry-After, but no longer than the cap", () => {
    expect(retryDelayMs(1, 700, { baseDelayMs: 100, maxDelayMs: 5000 }, () => 0)).toBe(700);
    expect(retryDelayMs(1, 60_000, { baseDelayMs: 100, maxDelayMs: 5000 }, () => 0)).toBe(5000);
  });
});

describe("isIdempotentCreate", () => {
  it("names the creates, not searches or other POSTs", () => {
    expect(isIdempotentCreate("POST", "/v1/memories")).toBe(true);
    expect(isIdempotentCreate("post", "/v1/shows/s1/questions")).toBe(true);
    expect(isIdempotentCreate("POST", "/v1/staging/st_1/reject")).toBe(true);
    expect(isIdempotentCreate("POST", "/v1/memories/search")).toBe(false);
    expect(isIdempotentCreate("POST", "/v1/faqs/search")).toBe(false);
    expect(isIdempotentCreate("POST", "/v1/admin/keys")).toBe(false);
    expect(isIdempotentCreate("GET", "/v1/memories")).toBe(false);
  });
});
