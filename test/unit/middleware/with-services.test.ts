import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createServices } from "../../../src/app/services";
import type { Defer, PgHandle, Services } from "../../../src/platform/ports/services";
import { withServices } from "../../../src/http/middleware/with-services";
import { appAround, requestLog } from "../../support/middleware";

/** Runs one request through withServices(create) and `route`, waiting for the work left after the answer. */
async function request(create: (env: Env, defer: Defer) => Services, route: Parameters<typeof appAround>[1]) {
  const ctx = createExecutionContext();
  const response = await appAround([withServices(create)], route).request("/", {}, env, ctx);
  await waitOnExecutionContext(ctx);
  return response;
}

describe("withServices", () => {
  it("gives the route the services it builds, logging through the request's logger", async () => {
    let built: Services | undefined;
    const res = await request(
      (e) => (built = createServices(e)),
      (c) => c.json({ built: c.get("services").db === built?.db, requestLog: c.get("services").log === requestLog }),
    );
    expect(await res.json()).toEqual({ built: true, requestLog: true });
  });

  it("starts what the services defer only once the route has answered", async () => {
    const events: string[] = [];
    let defer: Defer = () => {};
    await request(
      (e, d) => {
        defer = d;
        return createServices(e);
      },
      async (c) => {
        defer(async () => events.push("deferred work"));
        await new Promise((resolve) => setTimeout(resolve, 5));
        events.push("answered");
        return c.json({});
      },
    );
    expect(events).toEqual(["answered", "deferred work"]);
  });

  it("releases the Postgres pool a request opened once the route has answered", async () => {
    const events: string[] = [];
    const pool = { release: async () => void events.push("released") } as unknown as PgHandle;
    await request(
      (e) => ({ ...createServices(e), faqPostgres: pool }),
      (c) => {
        events.push("answered");
        return c.json({});
      },
    );
    expect(events).toEqual(["answered", "released"]);
  });
});
