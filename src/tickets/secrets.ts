/**
 * Per-tenant webhook signing secrets. HMAC-SHA256 needs the secret itself on both sides, so it is
 * stored as is in D1 (not hashed like API keys): it is returned once, at creation or rotation,
 * and never listed again. Rotation keeps the previous secrets valid for an overlap window
 * (default WEBHOOK_SECRET_OVERLAP_MS, 24 h) so senders can switch without a failed delivery.
 */
import { randomToken } from "../crypto";
import { newId } from "../ids";

export const WEBHOOK_SECRET_OVERLAP_MS = 24 * 60 * 60 * 1000;
/** Longest overlap a rotation may ask for (7 days). */
export const MAX_WEBHOOK_SECRET_OVERLAP_MS = 7 * 24 * 60 * 60 * 1000;

export interface WebhookSecretInfo {
  id: string;
  prefix: string;
  createdAt: string;
  /** null: valid until rotated or revoked. */
  expiresAt: string | null;
  active: boolean;
}

interface SecretRow {
  id: string;
  secret_prefix: string;
  created_at: number;
  expires_at: number | null;
}

function toInfo(row: SecretRow, now: number): WebhookSecretInfo {
  return {
    id: row.id,
    prefix: row.secret_prefix,
    createdAt: new Date(row.created_at).toISOString(),
    expiresAt: row.expires_at === null ? null : new Date(row.expires_at).toISOString(),
    active: row.expires_at === null || row.expires_at > now,
  };
}

/**
 * A new secret for the tenant. Every secret still valid gets `expires_at = now + overlapMs`
 * (unless it already ends sooner): creating and rotating are the same operation.
 */
export async function rotateWebhookSecret(
  db: D1Database,
  tenantId: string,
  now: number,
  overlapMs = WEBHOOK_SECRET_OVERLAP_MS,
): Promise<WebhookSecretInfo & { secret: string; previousValidUntil: string | null }> {
  const secret = `whsec_${randomToken(32)}`;
  const id = newId("whs");
  const until = now + overlapMs;
  const [expired] = await db.batch([
    db
      .prepare("UPDATE webhook_secrets SET expires_at = ? WHERE tenant_id = ? AND (expires_at IS NULL OR expires_at > ?)")
      .bind(until, tenantId, until),
    db
      .prepare("INSERT INTO webhook_secrets (id, tenant_id, secret, secret_prefix, created_at, expires_at) VALUES (?, ?, ?, ?, ?, NULL)")
      .bind(id, tenantId, secret, secret.slice(0, 12), now),
  ]);
  const hadPrevious = (expired?.meta.changes ?? 0) > 0;
  return {
    ...toInfo({ id, secret_prefix: secret.slice(0, 12), created_at: now, expires_at: null }, now),
    secret,
    previousValidUntil: hadPrevious ? new Date(until).toISOString() : null,
  };
}

export async function listWebhookSecrets(db: D1Database, tenantId: string, now: number): Promise<WebhookSecretInfo[]> {
  const { results } = await db
    .prepare("SELECT id, secret_prefix, created_at, expires_at FROM webhook_secrets WHERE tenant_id = ? ORDER BY created_at DESC, id")
    .bind(tenantId)
    .all<SecretRow>();
  return results.map((r) => toInfo(r, now));
}

/** Ends a secret now (a leaked one): false when the tenant has no such active secret. */
export async function revokeWebhookSecret(db: D1Database, tenantId: string, id: string, now: number): Promise<boolean> {
  const result = await db
    .prepare("UPDATE webhook_secrets SET expires_at = ? WHERE id = ? AND tenant_id = ? AND (expires_at IS NULL OR expires_at > ?)")
    .bind(now, id, tenantId, now)
    .run();
  return (result.meta.changes ?? 0) > 0;
}

/** The secrets a signature may be made with right now (several during a rotation's overlap). */
export async function activeWebhookSecrets(db: D1Database, tenantId: string, now: number): Promise<string[]> {
  const { results } = await db
    .prepare("SELECT secret FROM webhook_secrets WHERE tenant_id = ? AND (expires_at IS NULL OR expires_at > ?)")
    .bind(tenantId, now)
    .all<{ secret: string }>();
  return results.map((r) => r.secret);
}
