import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createApiKey, createTenant, findPrincipal, PRINCIPAL_CACHE_MS, revokeApiKey } from "../../src/features/auth/keys";

async function freshKey() {
  const now = Date.now();
  const tenant = await createTenant(env.DB, { name: "key cache", now });
  return createApiKey(env.DB, { tenantId: tenant.id, role: "client", now });
}

describe("findPrincipal's per-isolate cache of valid keys (real local D1)", () => {
  it("stops a key revoked by another isolate within PRINCIPAL_CACHE_MS, and not later", async () => {
    const key = await freshKey();
    const t0 = Date.now();
    expect(await findPrincipal(env.DB, key.key, t0)).toMatchObject({ keyId: key.id });
    // Another isolate revokes it: a write straight to D1, which this isolate's cache does not see.
    await env.DB.prepare("UPDATE api_keys SET revoked_at = ? WHERE id = ?").bind(t0, key.id).run();
    // Within the bound the cached principal still answers (the documented window) …
    expect(await findPrincipal(env.DB, key.key, t0 + PRINCIPAL_CACHE_MS - 1)).toMatchObject({ keyId: key.id });
    // … and past it D1 decides: the key is refused, and stays refused.
    expect(await findPrincipal(env.DB, key.key, t0 + PRINCIPAL_CACHE_MS)).toBeNull();
    expect(await findPrincipal(env.DB, key.key, t0 + 1)).toBeNull();
  });

  it("stops a key revoked in this isolate at once, cache or not", async () => {
    const key = await freshKey();
    const now = Date.now();
    expect(await findPrincipal(env.DB, key.key, now)).not.toBeNull();
    expect(await revokeApiKey(env.DB, key.tenantId, key.id, now)).toBe(true);
    expect(await findPrincipal(env.DB, key.key, now)).toBeNull();
  });
});
