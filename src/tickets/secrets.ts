/**
 * Per-tenant webhook signing secrets, for the native `X-Recall-*` webhook (connection null) and for
 * each helpdesk connection. HMAC needs the secret itself on both sides, so it cannot be hashed
 * like an API key: it is sealed with AES-GCM (secret-box.ts) and opened only to verify a delivery.
 * A generated secret is returned once, at creation or rotation; a provider-supplied one (Zendesk,
 * Intercom, Front) is never returned. Rotation keeps the previous secrets valid for an overlap
 * window (default 24 h) so senders switch without a failed delivery.
 *
 * Upgrade from plaintext (rows written before migration 0010): a migration cannot run WebCrypto,
 * so a plaintext row is sealed the first time it is read (activeSecrets) and, for rows nobody
 * reads, by the 5-minute cron (sealPendingSecrets), which also re-seals rows whose key is no
 * longer SECRETS_KEK's first. Ended secrets are deleted by the same cron (pruneEndedSecrets).
 */
import { newId } from "../ids";
import { ConfigError } from "../services";
import type { SecretBox } from "./secret-box";
import { errorFields, type Logger } from "../log";

export const WEBHOOK_SECRET_OVERLAP_MS = 24 * 60 * 60 * 1000;
/** Longest overlap a rotation may ask for (7 days). */
export const MAX_WEBHOOK_SECRET_OVERLAP_MS = 7 * 24 * 60 * 60 * 1000;
/** Rows the cron seals per run (bounded work). */
export const SEAL_BATCH = 200;

export interface WebhookSecretInfo {
  id: string;
  /** The first characters of a generated secret ("" for one a provider supplied). */
  prefix: string;
  createdAt: string;
  /** null: valid until rotated or revoked. */
  expiresAt: string | null;
  active: boolean;
}

interface SecretRow {
  id: string;
  tenant_id: string;
  secret: string | null;
  ciphertext: string | null;
  key_id: string | null;
  secret_prefix: string;
  created_at: number;
  expires_at: number | null;
}

/** null scope = the native webhook's secrets; otherwise a helpdesk connection id. */
export type SecretScope = string | null;

const additionalData = (row: { tenant_id: string; id: string }) => `webhook_secret:${row.tenant_id}:${row.id}`;

function toInfo(row: Pick<SecretRow, "id" | "secret_prefix" | "created_at" | "expires_at">, now: number): WebhookSecretInfo {
  return {
    id: row.id,
    prefix: row.secret_prefix,
    createdAt: new Date(row.created_at).toISOString(),
    expiresAt: row.expires_at === null ? null : new Date(row.expires_at).toISOString(),
    active: row.expires_at === null || row.expires_at > now,
  };
}

/** A random `whsec_` secret: the Standard Webhooks form, base64 of 32 random bytes after the prefix. */
export function generateSecret(): string {
  const raw = crypto.getRandomValues(new Uint8Array(32));
  return `whsec_${btoa(String.fromCharCode(...raw))}`;
}

/**
 * A new secret for the scope. Every secret of the scope still valid gets `expires_at = now +
 * overlapMs` (unless it already ends sooner): creating and rotating are the same operation.
 * `secret`: the value to store (default: a generated `whsec_` secret); it is returned unless
 * `supplied` (the helpdesk's own, never echoed back).
 */
export async function rotateWebhookSecret(
  db: D1Database,
  box: SecretBox,
  args: { tenantId: string; scope: SecretScope; now: number; overlapMs?: number; secret?: string | undefined; supplied?: boolean },
): Promise<WebhookSecretInfo & { secret?: string; previousValidUntil: string | null }> {
  const { tenantId, scope, now, overlapMs = WEBHOOK_SECRET_OVERLAP_MS, supplied = false } = args;
  const secret = args.secret ?? generateSecret();
  // A secret the helpdesk supplied is theirs: not even a prefix of it is shown again.
  const prefix = supplied ? "" : secret.slice(0, 12);
  const id = newId("whs");
  const until = now + overlapMs;
  const sealed = await box.seal(secret, additionalData({ tenant_id: tenantId, id }));
  const [expired] = await db.batch([
    db
      .prepare(
        "UPDATE webhook_secrets SET expires_at = ? WHERE tenant_id = ? AND connection_id IS ? AND (expires_at IS NULL OR expires_at > ?)",
      )
      .bind(until, tenantId, scope, until),
    db
      .prepare(
        "INSERT INTO webhook_secrets (id, tenant_id, secret, ciphertext, key_id, connection_id, secret_prefix, created_at, expires_at) VALUES (?, ?, NULL, ?, ?, ?, ?, ?, NULL)",
      )
      .bind(id, tenantId, sealed.ciphertext, sealed.keyId, scope, prefix, now),
  ]);
  const hadPrevious = (expired?.meta.changes ?? 0) > 0;
  return {
    ...toInfo({ id, secret_prefix: prefix, created_at: now, expires_at: null }, now),
    ...(supplied ? {} : { secret }),
    previousValidUntil: hadPrevious ? new Date(until).toISOString() : null,
  };
}

export async function listWebhookSecrets(
  db: D1Database,
  tenantId: string,
  scope: SecretScope,
  now: number,
  page: { limit: number; after?: readonly [number, string] | undefined } = { limit: -1 },
): Promise<WebhookSecretInfo[]> {
  // Newest first; `after` is the (created_at, id) of the previous page's last row. LIMIT -1 is all.
  const { results } = await db
    .prepare(
      `SELECT id, secret_prefix, created_at, expires_at FROM webhook_secrets
       WHERE tenant_id = ?1 AND connection_id IS ?2 AND (?3 IS NULL OR created_at < ?3 OR (created_at = ?3 AND id > ?4))
       ORDER BY created_at DESC, id LIMIT ?5`,
    )
    .bind(tenantId, scope, page.after?.[0] ?? null, page.after?.[1] ?? "", page.limit)
    .all<SecretRow>();
  return results.map((r) => toInfo(r, now));
}

/** Ends a secret now (a leaked one): false when the scope has no such active secret. */
export async function revokeWebhookSecret(db: D1Database, tenantId: string, scope: SecretScope, id: string, now: number): Promise<boolean> {
  const result = await db
    .prepare(
      "UPDATE webhook_secrets SET expires_at = ? WHERE id = ? AND tenant_id = ? AND connection_id IS ? AND (expires_at IS NULL OR expires_at > ?)",
    )
    .bind(now, id, tenantId, scope, now)
    .run();
  return (result.meta.changes ?? 0) > 0;
}

/** Ends every secret of a scope now (a revoked connection). */
export async function revokeScopeSecrets(db: D1Database, tenantId: string, scope: string, now: number): Promise<void> {
  await db
    .prepare(
      "UPDATE webhook_secrets SET expires_at = ? WHERE tenant_id = ? AND connection_id = ? AND (expires_at IS NULL OR expires_at > ?)",
    )
    .bind(now, tenantId, scope, now)
    .run();
}

/** Seals a plaintext row, or re-seals one under a retired key; returns the plaintext. */
async function openAndUpgrade(db: D1Database, box: SecretBox, row: SecretRow): Promise<string> {
  const plain =
    row.ciphertext !== null && row.key_id !== null ? await box.open(row.ciphertext, row.key_id, additionalData(row)) : row.secret;
  if (plain === null) throw new Error(`webhook secret ${row.id} has neither ciphertext nor plaintext`);
  if (row.secret !== null || row.key_id !== box.currentKeyId) {
    const sealed = await box.seal(plain, additionalData(row));
    await db
      .prepare("UPDATE webhook_secrets SET ciphertext = ?, key_id = ?, secret = NULL WHERE id = ?")
      .bind(sealed.ciphertext, sealed.keyId, row.id)
      .run();
  }
  return plain;
}

/** The secrets a signature may be made with right now (several during a rotation's overlap). */
export async function activeWebhookSecrets(
  db: D1Database,
  box: SecretBox,
  tenantId: string,
  scope: SecretScope,
  now: number,
  log: Logger,
): Promise<string[]> {
  const { results } = await db
    .prepare("SELECT * FROM webhook_secrets WHERE tenant_id = ? AND connection_id IS ? AND (expires_at IS NULL OR expires_at > ?)")
    .bind(tenantId, scope, now)
    .all<SecretRow>();
  const opened = await Promise.all(
    results.map((r) =>
      openAndUpgrade(db, box, r).catch((error: unknown) => {
        // A retired KEK is misconfiguration (ConfigError → 503); one damaged row only loses that secret.
        if (error instanceof ConfigError) throw error;
        log.error("webhook_secret_unreadable", { secretId: r.id, ...errorFields(error) });
        return null;
      }),
    ),
  );
  return opened.filter((s): s is string => s !== null);
}

/** Cron: seals plaintext rows and re-seals rows under a retired key (SEAL_BATCH per run). */
export async function sealPendingSecrets(db: D1Database, box: SecretBox): Promise<{ sealed: number }> {
  const { results } = await db
    .prepare("SELECT * FROM webhook_secrets WHERE secret IS NOT NULL OR key_id IS NOT ? LIMIT ?")
    .bind(box.currentKeyId, SEAL_BATCH)
    .all<SecretRow>();
  for (const row of results) await openAndUpgrade(db, box, row);
  return { sealed: results.length };
}

/** Cron: deletes secrets whose end has passed (they can never verify again). */
export async function pruneEndedSecrets(db: D1Database, now: number): Promise<{ pruned: number }> {
  const result = await db.prepare("DELETE FROM webhook_secrets WHERE expires_at IS NOT NULL AND expires_at <= ?").bind(now).run();
  return { pruned: result.meta.changes ?? 0 };
}
