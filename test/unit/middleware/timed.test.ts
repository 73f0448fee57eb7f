import type { MiddlewareHandler } from "hono";
import { describe, expect, it } from "vitest";
import type { AppEnv } from "../../../src/http/context";
import { TIMING_HEADER, timed } from "../../../src/http/middleware/timed";
import { appAround } from "../../support/middleware";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const waitsBefore =
  (ms: number): MiddlewareHandler<AppEnv> =>
  async (_c, next) => {
    await sleep(ms);
    await next();
  };

const app = appAround([timed("outer", waitsBefore(5)), timed("inner", waitsBefore(40))], async (c) => {
  await sleep(20);
  return c.json({ ok: true });
});

function entries(response: Response): Record<string, number> {
  const header = response.headers.get("server-timing") ?? "";
  return Object.fromEntries([...header.matchAll(/mw\.(\w+);dur=([\d.]+)/g)].map(([, name, ms]) => [name!, Number(ms)]));
}

describe("timed: each middleware's own cost in Server-Timing, on request", () => {
  it("reports every timed middleware's own time, not the time of what runs after it", async () => {
    const response = await app.request("/v1/x", { headers: { [TIMING_HEADER]: "middleware" } });
    const timings = entries(response);
    expect(Object.keys(timings).sort()).toEqual(["inner", "outer"]);
    expect(timings.inner).toBeGreaterThanOrEqual(35);
    expect(timings.inner).toBeLessThan(55); // the route's 20 ms are not the inner middleware's
    expect(timings.outer).toBeLessThan(30); // nor the inner middleware's 40 ms the outer one's
    const whole = Number(/(?:^|, )mw;dur=([\d.]+)/.exec(response.headers.get("server-timing") ?? "")?.[1]);
    expect(whole).toBeGreaterThanOrEqual(60); // the outermost reports the whole chain: 5 + 40 + 20 ms
  });

  it("adds nothing when the request did not ask", async () => {
    const response = await app.request("/v1/x");
    expect(response.status).toBe(200);
    expect(entries(response)).toEqual({});
  });
});
