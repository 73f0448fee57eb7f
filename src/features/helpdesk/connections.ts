/**
 * Helpdesk connections: one per tenant and helpdesk webhook. A connection owns its secrets (the
 * `webhook_secrets` rows with its id), rotated and revoked through the same store as the native
 * webhook's. Secrets Recall generates are returned once; secrets a helpdesk supplies are never.
 */
import { and, desc, eq, gt, isNull, lt, or } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import { type HelpdeskProvider, helpdeskConnections } from "../../platform/db/schema/helpdesk";
import { newId } from "../../core/base/ids";
import type { SecretBox } from "../../platform/ports/secret-box";
import { listWebhookSecrets, revokeScopeSecrets, rotateWebhookSecret, type WebhookSecretInfo } from "../tickets/secrets";
import { providers } from "./providers";
import { standardKey } from "./standard";

export type ConnectionRow = typeof helpdeskConnections.$inferSelect;

const hc = helpdeskConnections;

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
    status: row.revokedAt !== null ? "revoked" : active.length === 0 ? "awaiting_secret" : "active",
    createdAt: new Date(row.createdAt).toISOString(),
    revokedAt: row.revokedAt === null ? null : new Date(row.revokedAt).toISOString(),
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
  const [row] = await drizzle(db).select().from(hc).where(eq(hc.id, id));
  return row ?? null;
}

export async function getTenantConnection(db: D1Database, tenantId: string, id: string): Promise<ConnectionRow | null> {
  const [row] = await drizzle(db)
    .select()
    .from(hc)
    .where(and(eq(hc.id, id), eq(hc.tenantId, tenantId)));
  return row ?? null;
}

/** Creates the connection and, unless the helpdesk supplies it later, its first secret. */
export async function createConnection(
  db: D1Database,
  box: SecretBox,
  args: { tenantId: string; provider: HelpdeskProvider; name: string; secret?: string | undefined; now: number },
) {
  const { tenantId, provider, name, secret, now } = args;
  const module = providers[provider];
  const row: ConnectionRow = { id: newId("hdc"), tenantId, provider, name, createdAt: now, revokedAt: null };
  await drizzle(db).insert(hc).values(row);
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
    tenantId: row.tenantId,
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
  const after = page.after;
  const rows = await drizzle(db)
    .select()
    .from(hc)
    .where(
      and(
        eq(hc.tenantId, tenantId),
        after ? or(lt(hc.createdAt, after[0]), and(eq(hc.createdAt, after[0]), gt(hc.id, after[1]))) : undefined,
      ),
    )
    .orderBy(desc(hc.createdAt), hc.id)
    .limit(page.limit);
  return Promise.all(rows.map(async (r) => toConnection(r, await listWebhookSecrets(db, tenantId, r.id, now))));
}

/** Revokes the connection: it and all its secrets stop verifying now. False when there is no such live connection. */
export async function revokeConnection(db: D1Database, tenantId: string, id: string, now: number): Promise<boolean> {
  const revoked = await drizzle(db)
    .update(hc)
    .set({ revokedAt: now })
    .where(and(eq(hc.id, id), eq(hc.tenantId, tenantId), isNull(hc.revokedAt)))
    .returning({ id: hc.id });
  if (revoked.length === 0) return false;
  await revokeScopeSecrets(db, tenantId, id, now);
  return true;
}
