/**
 * A screen whose key is over its API rate limit answers a 429 page that says how long to wait,
 * with Retry-After, instead of "Something went wrong". TIGHT_RATE_LIMIT (3 per 60 s) stands in
 * for the API's binding, as in ratelimit.test.ts.
 */
import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createApp } from "../../src/app/app";
import { newTenant } from "../support/api";

const BASE = "https://recall.test";

async function send(path: string, init: RequestInit = {}) {
  const ctx = createExecutionContext();
  const response = await createApp().fetch(new Request(`${BASE}${path}`, init), { ...env, API_RATE_LIMIT: env.TIGHT_RATE_LIMIT }, ctx);
  await waitOnExecutionContext(ctx);
  return { status: response.status, headers: response.headers, html: await response.text() };
}

describe("/ui over the API's rate limit", () => {
  it("answers 429 with the wait in words and Retry-After", async () => {
    const { clientKey } = await newTenant();
    const login = await send("/ui/login", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: BASE },
      body: new URLSearchParams({ key: clientKey }),
      redirect: "manual",
    });
    const cookie = (login.headers.get("set-cookie") ?? "").split(";")[0]!;
    let page = await send("/ui/faqs", { headers: { cookie } });
    for (let i = 0; i < 6 && page.status === 200; i++) page = await send("/ui/faqs", { headers: { cookie } });
    expect(page.status).toBe(429);
    const wait = Number(page.headers.get("retry-after"));
    expect(wait).toBeGreaterThanOrEqual(1);
    expect(wait).toBeLessThanOrEqual(60);
    expect(page.html).toContain("Too many requests");
    expect(page.html).toContain(`Wait ${wait} second`);
    expect(page.html).not.toContain("Something went wrong");
  });
});
