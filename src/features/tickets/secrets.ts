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
import { and, desc, eq, gt, isNotNull, isNull, lt, lte, ne, or, type SQL } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import { webhookSecrets } from "../../platform/db/schema";
import { newId } from "../../core/base/ids";
import { ConfigError } from "../../platform/observe/config-error";
import type { SecretBox } from "../../platform/ports/secret-box";
import { errorFields, type Logger } from "../../platform/observe/log";

export const WEBHOOK_SECRET_OVERLAP_MS = 24 * 60 * 60 * 1000;
/** Longest overlap a rotation may ask for (7 days). */
export const MAX_WEBHOOK_SECRET_OVERLAP_MS = 7 * 24 * 60 * 60 * 1000;
/** Rows the cron seals per run (bounded work). */
export const SEAL_BATCH = 200;

export interface WebhookSecretInfo {
  id: string;
  /** A generated secret's hint (secretHint: its marker and 6 characters), "" for one a provider supplied. */
  prefix: string;
  createdAt: string;
  /** null: valid until rotated or revoked. */
  expiresAt: string | null;
  active: boolean;
}

type SecretRow = typeof webhookSecrets.$inferSelect;

const w = webhookSecrets;

/** null scope = the native webhook's secrets; otherwise a helpdesk connection id. */
export type SecretScope = string | null;

const inScope = (tenantId: string, scope: SecretScope) =>
  and(eq(w.tenantId, tenantId), scope === null ? isNull(w.connectionId) : eq(w.connectionId, scope));
/** Still verifying at `time`. */
const activeAt = (time: number): SQL => or(isNull(w.expiresAt), gt(w.expiresAt, time))!;

const additionalData = (row: { tenantId: string; id: string }) => `webhook_secret:${row.tenantId}:${row.id}`;

/** The fixed markers that open generated secrets (Standard Webhooks', Recall's Freshdesk tokens): no randomness in them. */
const SECRET_MARKER = /^(?:whsec|fdtok)_/;
/**
 * Random characters a secret's hint shows after its marker, as an API key's prefix does: enough to
 * tell a tenant's secrets apart, 36 bits of the 192 or more each generated secret holds, so the
 * rest stays out of reach. A Help Scout key (32 characters, no marker) used to show 12: 72 bits.
 */
export const SECRET_HINT_CHARS = 6;

/** What of a generated secret is shown and stored in plaintext: its marker and SECRET_HINT_CHARS characters. */
export function secretHint(secret: string): string {
  const marker = SECRET_MARKER.exec(secret)?.[0] ?? "";
  return secret.slice(0, marker.length + SECRET_HINT_CHARS);
}

function toInfo(row: Pick<SecretRow, "id" | "secretPrefix" | "createdAt" | "expiresAt">, now: number): WebhookSecretInfo {
  return {
    id: row.id,
    // Cut again when shown: rows written before the hint rule hold up to 12 characters.
    prefix: secretHint(row.secretPrefix),
    createdAt: new Date(row.createdAt).toISOString(),
    expiresAt: row.expiresAt === null ? null : new Date(row.expiresAt).toISOString(),
    active: row.expiresAt === null || row.expiresAt > now,
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
  const prefix = supplied ? "" : secretHint(secret);
  const id = newId("whs");
  const until = now + overlapMs;
  const sealed = await box.seal(secret, additionalData({ tenantId, id }));
  const orm = drizzle(db);
  const [expired] = await orm.batch([
    orm
      .update(w)
      .set({ expiresAt: until })
      .where(and(inScope(tenantId, scope), activeAt(until)))
      .returning({ id: w.id }),
    orm.insert(w).values({
      id,
      tenantId,
      secret: null,
      ciphertext: sealed.ciphertext,
      keyId: sealed.keyId,
      connectionId: scope,
      secretPrefix: prefix,
      createdAt: now,
      expiresAt: null,
    }),
  ]);
  const hadPrevious = expired.length > 0;
  return {
    ...toInfo({ id, secretPrefix: prefix, createdAt: now, expiresAt: null }, now),
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
  // Newest first; `after` is the (created_at, id) of the previous page's last row. A negative limit is all.
  const after = page.after;
  const query = drizzle(db)
    .select({ id: w.id, secretPrefix: w.secretPrefix, createdAt: w.createdAt, expiresAt: w.expiresAt })
    .from(w)
    .where(
      and(inScope(tenantId, scope), after ? or(lt(w.createdAt, after[0]), and(eq(w.createdAt, after[0]), gt(w.id, after[1]))) : undefined),
    )
    .orderBy(desc(w.createdAt), w.id);
  const rows = page.limit < 0 ? await query : await query.limit(page.limit);
  return rows.map((r) => toInfo(r, now));
}

/** Ends a secret now (a leaked one): false when the scope has no such active secret. */
export async function revokeWebhookSecret(db: D1Database, tenantId: string, scope: SecretScope, id: string, now: number): Promise<boolean> {
  const ended = await drizzle(db)
    .update(w)
    .set({ expiresAt: now })
    .where(and(eq(w.id, id), inScope(tenantId, scope), activeAt(now)))
    .returning({ id: w.id });
  return ended.length > 0;
}

/** Ends every secret of a scope now (a revoked connection). */
export async function revokeScopeSecrets(db: D1Database, tenantId: string, scope: string, now: number): Promise<void> {
  await drizzle(db)
    .update(w)
    .set({ expiresAt: now })
    .where(and(inScope(tenantId, scope), activeAt(now)));
}

/** Seals a plaintext row, or re-seals one under a retired key; returns the plaintext. */
async function openAndUpgrade(db: D1Database, box: SecretBox, row: SecretRow): Promise<string> {
  const plain = row.ciphertext !== null && row.keyId !== null ? await box.open(row.ciphertext, row.keyId, additionalData(row)) : row.secret;
  if (plain === null) throw new Error(`webhook secret ${row.id} has neither ciphertext nor plaintext`);
  if (row.secret !== null || row.keyId !== box.currentKeyId) {
    const sealed = await box.seal(plain, additionalData(row));
    await drizzle(db).update(w).set({ ciphertext: sealed.ciphertext, keyId: sealed.keyId, secret: null }).where(eq(w.id, row.id));
  }
  return plain;
}

/**
 * What a delivery is verified against: its secrets, or with none (no such tenant or connection, no
 * secret) a throwaway one, so the time the refusal takes does not tell which it was.
 */
export const secretsOrDecoy = (secrets: readonly string[]): readonly string[] =>
  secrets.length > 0 ? secrets : [`whsec_${btoa(crypto.randomUUID())}`];

/** The secrets a signature may be made with right now (several during a rotation's overlap). */
export async function activeWebhookSecrets(
  db: D1Database,
  box: SecretBox,
  tenantId: string,
  scope: SecretScope,
  now: number,
  log: Logger,
): Promise<string[]> {
  const rows = await drizzle(db)
    .select()
    .from(w)
    .where(and(inScope(tenantId, scope), activeAt(now)));
  const opened = await Promise.all(
    rows.map((r) =>
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
  const rows = await drizzle(db)
    .select()
    .from(w)
    // Plaintext rows (no key yet) and rows sealed under a retired key.
    .where(or(isNotNull(w.secret), isNull(w.keyId), ne(w.keyId, box.currentKeyId)))
    .limit(SEAL_BATCH);
  for (const row of rows) await openAndUpgrade(db, box, row);
  return { sealed: rows.length };
}

/** Cron: deletes secrets whose end has passed (they can never verify again). */
export async function pruneEndedSecrets(db: D1Database, now: number): Promise<{ pruned: number }> {
  const pruned = await drizzle(db)
    .delete(w)
    .where(and(isNotNull(w.expiresAt), lte(w.expiresAt, now)))
    .returning({ id: w.id });
  return { pruned: pruned.length };
}
