/**
 * Webhook secrets at rest: sealed with AES-GCM under SECRETS_KEK. Rows from before migration 0010
 * (plaintext) still verify and are sealed on first read or by the 5-minute cron; a KEK rotation
 * re-seals rows under the new key; ended secrets are pruned.
 */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createServices } from "../../src/app/services";
import { pruneEndedSecrets, sealPendingSecrets } from "../../src/features/tickets/secrets";
import { runCron, REINDEX_CRON } from "../../src/app/cron";
import { newTenant } from "../support/api";
import { deliver, newWebhookSecret, ticket } from "../support/tickets";

interface Row {
  id: string;
  secret: string | null;
  ciphertext: string | null;
  key_id: string | null;
}
const row = (id: string) => env.DB.prepare("SELECT id, secret, ciphertext, key_id FROM webhook_secrets WHERE id = ?").bind(id).first<Row>();

async function legacyPlaintextSecret(tenantId: string, secret: string): Promise<string> {
  const id = `whs_legacy_${crypto.randomUUID()}`;
  await env.DB.prepare(
    "INSERT INTO webhook_secrets (id, tenant_id, secret, secret_prefix, created_at, expires_at) VALUES (?, ?, ?, ?, ?, NULL)",
  )
    .bind(id, tenantId, secret, secret.slice(0, 12), Date.now())
    .run();
  return id;
}

describe("webhook secrets at rest", () => {
  it("a native secret is stored sealed (no plaintext column, ciphertext without the secret) and still verifies", async () => {
    const tenant = await newTenant();
    const secret = await newWebhookSecret(tenant);
    const { results } = await env.DB.prepare("SELECT * FROM webhook_secrets WHERE tenant_id = ?").bind(tenant.tenantId).all<Row>();
    expect(results).toHaveLength(1);
    expect(results[0]).toMatchObject({ secret: null, key_id: "test1" });
    expect(results[0]!.ciphertext).not.toContain(secret.slice(6, 20));
    expect((await deliver(tenant, secret, ticket("How do I export invoices?", "Billing → Export."))).status).toBe(202);
  });

  it("a legacy plaintext secret verifies and is sealed by that first read", async () => {
    const tenant = await newTenant();
    const id = await legacyPlaintextSecret(tenant.tenantId, "whsec_legacy_plaintext_secret_1");
    expect(
      (await deliver(tenant, "whsec_legacy_plaintext_secret_1", ticket("How do I export invoices?", "Billing → Export."))).status,
    ).toBe(202);
    expect(await row(id)).toMatchObject({ secret: null, key_id: "test1", ciphertext: expect.any(String) });
    expect(
      (await deliver(tenant, "whsec_legacy_plaintext_secret_1", ticket("How do I export invoices?", "Billing → Export."))).status,
    ).toBe(202);
  });

  it("the 5-minute cron seals plaintext rows nobody read, and a KEK rotation re-seals every row under the new key", async () => {
    const tenant = await newTenant();
    const id = await legacyPlaintextSecret(tenant.tenantId, "whsec_legacy_plaintext_secret_2");
    const report = await runCron(REINDEX_CRON, createServices(env));
    expect(report.sealWebhookSecrets).toMatchObject({ sealed: expect.any(Number) });
    expect(await row(id)).toMatchObject({ secret: null, key_id: "test1" });

    const k2 = `k2:${btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(32))))}`;
    const rotatedEnv = { ...env, SECRETS_KEK: `${k2},${env.SECRETS_KEK}` };
    const services = createServices(rotatedEnv);
    while ((await sealPendingSecrets(env.DB, await services.secretBox())).sealed > 0);
    expect(await row(id)).toMatchObject({ secret: null, key_id: "k2" });
    // Still verifies under the rotated keyring (the route reads through it).
    const { activeWebhookSecrets } = await import("../../src/features/tickets/secrets");
    expect(await activeWebhookSecrets(env.DB, await services.secretBox(), tenant.tenantId, null, Date.now(), services.log)).toEqual([
      "whsec_legacy_plaintext_secret_2",
    ]);
  });

  it("a damaged ciphertext loses only that secret (logged), the tenant's other secret still verifies", async () => {
    const tenant = await newTenant();
    const first = await newWebhookSecret(tenant);
    const second = await newWebhookSecret(tenant, { overlapHours: 1 });
    await env.DB.prepare(
      "UPDATE webhook_secrets SET ciphertext = 'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' WHERE tenant_id = ? AND secret_prefix = ?",
    )
      .bind(tenant.tenantId, first.slice(0, 12))
      .run();
    expect((await deliver(tenant, first, ticket("How do I export invoices?", "Billing → Export."))).status).toBe(401);
    expect((await deliver(tenant, second, ticket("How do I export invoices?", "Billing → Export."))).status).toBe(202);
  });

  it("prunes secrets whose end has passed, and only those", async () => {
    const tenant = await newTenant();
    const first = await newWebhookSecret(tenant);
    await newWebhookSecret(tenant, { overlapHours: 0 });
    const before = await env.DB.prepare("SELECT COUNT(*) AS n FROM webhook_secrets WHERE tenant_id = ?")
      .bind(tenant.tenantId)
      .first<{ n: number }>();
    expect(before!.n).toBe(2);
    await pruneEndedSecrets(env.DB, Date.now() + 1);
    const after = await env.DB.prepare("SELECT COUNT(*) AS n FROM webhook_secrets WHERE tenant_id = ?")
      .bind(tenant.tenantId)
      .first<{ n: number }>();
    expect(after!.n).toBe(1);
    expect((await deliver(tenant, first, ticket("How do I export invoices?", "Billing → Export."))).status).toBe(401);
  });
});
