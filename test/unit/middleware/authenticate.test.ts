import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createServices } from "../../../src/app/services";
import { authenticate, principalForKey } from "../../../src/http/middleware/authenticate";
import { withServices } from "../../../src/http/middleware/with-services";
import { newTenant } from "../../support/api";
import { expectError } from "../../support/client";
import { appAround } from "../../support/middleware";

const app = appAround([withServices((e) => createServices(e)), authenticate()], (c) =>
  c.json({ principal: c.get("principal"), tenant: c.get("tenant") }),
);
const withKey = (authorization?: string) => app.request("/", { headers: authorization ? { authorization } : {} }, env);

describe("authenticate", () => {
  it("refuses a request without a Bearer key with 401", async () => {
    for (const header of [undefined, "Basic dXNlcjpwYXNz", "Bearer", `Bearer ${"k".repeat(257)}`]) {
      const res = await expectError(withKey(header), 401, "UNAUTHORIZED");
      expect(res.error.message, header).toBe("Send an API key as 'Authorization: Bearer <key>'");
    }
  });

  it("refuses an unknown key with 401", async () => {
    const res = await expectError(withKey("Bearer rk_live_not_a_key_anyone_holds"), 401, "UNAUTHORIZED");
    expect(res.error.message).toBe("The API key is not valid");
  });

  it("passes a valid key on with its tenant and role, the tenant bound to the request", async () => {
    const tenant = await newTenant();
    const client = await withKey(`Bearer ${tenant.clientKey}`);
    expect(await client.json()).toMatchObject({ principal: { tenantId: tenant.tenantId, role: "client" }, tenant: tenant.tenantId });
    const admin = await withKey(`bearer   ${tenant.adminKey}  `);
    expect(await admin.json()).toMatchObject({ principal: { tenantId: tenant.tenantId, role: "admin" } });
  });
});

describe("principalForKey", () => {
  it("is the key's principal, or null for a key nobody holds", async () => {
    const tenant = await newTenant();
    const services = createServices(env);
    expect(await principalForKey(services, env, tenant.adminKey)).toMatchObject({ tenantId: tenant.tenantId, role: "admin" });
    expect(await principalForKey(services, env, "rk_live_not_a_key_anyone_holds")).toBeNull();
  });

  it("knows the local dev key, creating its tenant on demand", async () => {
    const principal = await principalForKey(createServices(env), env, env.RECALL_DEV_API_KEY!);
    expect(principal).toMatchObject({ role: "admin", tenantId: expect.any(String) });
    expect(await principalForKey(createServices(env), { ...env, RECALL_DEV_API_KEY: undefined }, "rk_test_not_the_dev_key")).toBeNull();
  });
});
