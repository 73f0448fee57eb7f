import { env, SELF } from "cloudflare:test";
import { createApiKey, createTenant } from "../../src/features/auth/keys";

export interface TestTenant {
  tenantId: string;
  clientKey: string;
  adminKey: string;
}

/** A fresh tenant with a client key and an admin key: each test makes its own, so tests share nothing. */
export async function newTenant(name = "test tenant"): Promise<TestTenant> {
  const now = Date.now();
  const tenant = await createTenant(env.DB, { name, now });
  const client = await createApiKey(env.DB, { tenantId: tenant.id, role: "client", now });
  const admin = await createApiKey(env.DB, { tenantId: tenant.id, role: "admin", now });
  return { tenantId: tenant.id, clientKey: client.key, adminKey: admin.key };
}

export interface CallOptions {
  method?: string;
  key?: string | null;
  body?: unknown;
  /** A raw body string, sent as is (for malformed JSON and size tests). */
  raw?: string;
  headers?: Record<string, string>;
}

/**
 * A request the typed client would not send, through the Worker's real fetch handler: a body off
 * its schema, a raw or malformed body, a wrong content type, a forged header. Read the answer with
 * expectError (test/support/client.ts); everything else goes through the typed client.
 */
export function send(path: string, { method, key, body, raw, headers = {} }: CallOptions = {}): Promise<Response> {
  const init: RequestInit = {
    method: method ?? (body === undefined && raw === undefined ? "GET" : "POST"),
    headers: { ...headers },
  };
  const h = init.headers as Record<string, string>;
  if (key) h.authorization = `Bearer ${key}`;
  if (body !== undefined || raw !== undefined) {
    h["content-type"] ??= "application/json";
    init.body = raw ?? JSON.stringify(body);
  }
  return SELF.fetch(`https://recall.test${path}`, init);
}
