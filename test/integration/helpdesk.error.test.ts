/**
 * Helpdesk webhooks: bad input after a valid signature (400 INVALID_JSON / VALIDATION_FAILED),
 * over the limit (413), an unknown provider (404), Front's setup challenge, and a missing
 * SECRETS_KEK (503 with a logged reason, never a 500).
 */
import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createApp } from "../../src/app/app";
import { createServices } from "../../src/app/services";
import { sign } from "../fixtures/helpdesk";
import { newTenant } from "../support/api";
import { expectError, expectJson } from "../support/client";
import { connect, countRows, post } from "../support/helpdesk";
import { scenarios, send } from "../support/helpdesk-scenarios";

const standard = scenarios.find((s) => s.provider === "standard")!;

describe("POST /v1/webhooks/tickets/:provider/:connectionId: bad input", () => {
  it("answers 400 INVALID_JSON for a signed body that is not JSON, and 400 VALIDATION_FAILED for a signed body of another shape", async () => {
    const tenant = await newTenant();
    const conn = await connect(tenant, "standard");
    await expectError(send(standard, conn, conn.secret, "{not json"), 400, "INVALID_JSON");
    await expectError(send(standard, conn, conn.secret, { type: "ticket.solved", data: { ticketId: "1" } }), 400, "VALIDATION_FAILED");
    expect(await countRows("webhook_deliveries", tenant.tenantId)).toBe(0);
  });

  it("answers 401, not 400, for an unsigned body that is not JSON (nothing is parsed before verification)", async () => {
    const tenant = await newTenant();
    const conn = await connect(tenant, "intercom");
    const res = await post(conn.path, "{not json", {});
    expect(res.status).toBe(401);
  });

  it("answers 413 for a body over 256 KiB, signed or not", async () => {
    const tenant = await newTenant();
    const conn = await connect(tenant, "standard");
    const big = JSON.stringify({ type: "ticket.solved", data: { pad: "x".repeat(300 * 1024) } });
    await expectError(send(standard, conn, conn.secret, big), 413, "PAYLOAD_TOO_LARGE");
  });

  it("answers 404 for a helpdesk Recall does not know", async () => {
    await expectError(post("/v1/webhooks/tickets/gorgias/hdc_x", "{}", {}), 404, "NOT_FOUND");
  });

  it("answers Front's signed setup challenge with 200 { challenge }, and refuses an unsigned one", async () => {
    const tenant = await newTenant();
    const conn = await connect(tenant, "front");
    const body = JSON.stringify({ type: "sync", authorization: { id: "cmp_123" } });
    const headers = { ...(await sign.front(conn.secret, body)), "x-front-challenge": "c5a1f3e0b7" };
    expect(await expectJson(post(conn.path, body, headers), 200)).toMatchObject({ challenge: "c5a1f3e0b7" });
    const unsigned = await post(conn.path, body, { "x-front-challenge": "c5a1f3e0b7" });
    expect(unsigned.status).toBe(401);
  });

  it("answers 503 (not 500) when SECRETS_KEK is missing, on the webhook and the admin API, and logs why", async () => {
    const tenant = await newTenant();
    const conn = await connect(tenant, "standard");
    const app = createApp({ services: (e) => createServices({ ...e, SECRETS_KEK: "" }) });
    const body = JSON.stringify(standard.solved("kek-1")[0]);
    const requests = [
      new Request(`https://recall.test${conn.path}`, {
        method: "POST",
        headers: { "content-type": "application/json", ...(await sign.standard(conn.secret, body)) },
        body,
      }),
      new Request("https://recall.test/v1/admin/helpdesk-connections", {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${tenant.adminKey}` },
        body: JSON.stringify({ provider: "standard" }),
      }),
    ];
    for (const request of requests) {
      const ctx = createExecutionContext();
      const response = await app.fetch(request, env, ctx);
      await waitOnExecutionContext(ctx);
      const { error } = await expectError(response, 503, "UNAVAILABLE");
      expect(error).toMatchObject({ code: "UNAVAILABLE", message: "The service is misconfigured; see its logs" });
    }
  });
});
