/**
 * Helpdesk connections: one per tenant and helpdesk webhook. A connection owns its secrets (the
 * `webhook_secrets` rows with its id), rotated and revoked through the same store as the native
 * webhook's. Secrets Recall generates are returned once; secrets a helpdesk supplies are never.
 */
import type { HelpdeskProvider } from "../db/schema/helpdesk";
import { newId } from "../ids";
import type { SecretBox } from "../tickets/secret-box";
import { listWebhookSecrets, revokeScopeSecrets, rotateWebhookSecret, type WebhookSecretInfo } from "../tickets/secrets";
import { providers } from "./providers";
import { standardKey } from "./standard";

export interface ConnectionRow {
  id: string;
  tenant_id: string;
  provider: HelpdeskProvider;
  name: string;
  created_at: number;
  revoked_at: number | null;
}

/** Zendesk signs test deliveries with this published value before a webhook has its own secret. */
export const ZENDESK_TEST_SECRET = "dGhpc19zZWNyZXRfaXNfZm9yX3Rlc3Rpbmdfb25seQ==";

export const webhookPath = (row: Pick<ConnectionRow, "provider" | "id">) => `/v1/webhooks/tickets/${row.provider}/${row.id}`;

export function toConnection(row: ConnectionRow, secrets: WebhookSecretInfo[]) {
  const active = secrets.filter((s) => s.active);
  return {
    id: row.id,
    provider: row.provider,
    name: row.name,
    webhookPath: webhookPath(row),
    status: row.revoked_at !== null ? "revoked" : active.length === 0 ? "awaiting_secret" : "active",
    createdAt: new Date(row.created_at).toISOString(),
    revokedAt: row.revoked_at === null ? null : new Date(row.revoked_at).toISOString(),
    secrets,
  };
}

/** Why a secret is not usable for the provider, or null. */
export function secretProblem(provider: HelpdeskProvider, secret: string): string | null {
  if (provider === "standard") {
    const key = standardKey(secret);
    return key && key.length >= 24 && key.length <= 64 ? null : "a Standard Webhooks secret is whsec_ followed by base64 of 24 to 64 bytes";
  }
  if (provider === "zendesk" && secret === ZENDESK_TEST_SECRET)
    return "this is Zendesk's published test secret, which anyone can sign with: reveal the webhook's own signing secret";
  if (provider === "helpscout" && secret.length > 40) return "Help Scout accepts a secret key of at most 40 characters";
  if (provider === "freshdesk" && secret.length < 24) return "a Freshdesk token must be at least 24 characters (it is the only protection)";
  return secret.length >= 8 ? null : "the secret is too short";
}

export async function getConnection(db: D1Database, id: string): Promise<ConnectionRow | null> {
  return db.prepare("SELECT * FROM helpdesk_connections WHERE id = ?").bind(id).first<ConnectionRow>();
}

export async function getTenantConnection(db: D1Database, tenantId: string, id: string): Promise<ConnectionRow | null> {
  return db.prepare("SELECT * FROM helpdesk_connections WHERE id = ? AND tenant_id = ?").bind(id, tenantId).first<ConnectionRow>();
}

/** Creates the connection and, unless the helpdesk supplies it later, its first secret. */
export async function createConnection(
  db: D1Database,
  box: SecretBox,
  args: { tenantId: string; provider: HelpdeskProvider; name: string; secret?: string | undefined; now: number },
) {
  const { tenantId, provider, name, secret, now } = args;
  const module = providers[provider];
  const row: ConnectionRow = { id: newId("hdc"), tenant_id: tenantId, provider, name, created_at: now, revoked_at: null };
  await db
    .prepare("INSERT INTO helpdesk_connections (id, tenant_id, provider, name, created_at, revoked_at) VALUES (?, ?, ?, ?, ?, NULL)")
    .bind(row.id, tenantId, provider, name, now)
    .run();
  const generated = secret === undefined && module.generateSecret ? module.generateSecret() : undefined;
  const first = secret ?? generated;
  if (first === undefined) return { ...toConnection(row, []), secret: null };
  const {
    secret: _shown,
    previousValidUntil: _none,
    ...info
  } = await rotateWebhookSecret(db, box, { tenantId, scope: row.id, now, secret: first, supplied: generated === undefined });
  return { ...toConnection(row, [info]), secret: generated ?? null };
}

/** A new secret for the connection (generated, or the helpdesk's); the previous ones stay valid for the overlap. */
export async function rotateConnectionSecret(
  db: D1Database,
  box: SecretBox,
  row: ConnectionRow,
  args: { secret?: string | undefined; overlapMs: number; now: number },
) {
  const generated = args.secret === undefined ? providers[row.provider].generateSecret?.() : undefined;
  const secret = args.secret ?? generated;
  if (secret === undefined) return null;
  const created = await rotateWebhookSecret(db, box, {
    tenantId: row.tenant_id,
    scope: row.id,
    now: args.now,
    overlapMs: args.overlapMs,
    secret,
    supplied: generated === undefined,
  });
  return { id: created.id, createdAt: created.createdAt, previousValidUntil: created.previousValidUntil, secret: generated ?? null };
}

/** Newest first: at most `limit`, after the (created_at, id) position `after` when given. */
export async function listConnections(
  db: D1Database,
  tenantId: string,
  now: number,
  page: { limit: number; after?: readonly [number, string] | undefined },
) {
  const { results } = await db
    .prepare(
      `SELECT * FROM helpdesk_connections WHERE tenant_id = ?1 AND (?2 IS NULL OR created_at < ?2 OR (created_at = ?2 AND id > ?3))
       ORDER BY created_at DESC, id LIMIT ?4`,
    )
    .bind(tenantId, page.after?.[0] ?? null, page.after?.[1] ?? "", page.limit)
    .all<ConnectionRow>();
  return Promise.all(results.map(async (r) => toConnection(r, await listWebhookSecrets(db, tenantId, r.id, now))));
}

/** Revokes the connection: it and all its secrets stop verifying now. False when there is no such live connection. */
export async function revokeConnection(db: D1Database, tenantId: string, id: string, now: number): Promise<boolean> {
  const result = await db
    .prepare("UPDATE helpdesk_connections SET revoked_at = ? WHERE id = ? AND tenant_id = ? AND revoked_at IS NULL")
    .bind(now, id, tenantId)
    .run();
  if ((result.meta.changes ?? 0) === 0) return false;
  await revokeScopeSecrets(db, tenantId, id, now);
  return true;
}
