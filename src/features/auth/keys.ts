/**
 * API keys: `rk_` + 32 random bytes (base64url). Only the SHA-256 is stored; the key is shown
 * once, when created. A key belongs to one tenant and has one role.
 */
import { BoundedMap } from "../../core/base/bounded-map";
import { randomToken, sha256Hex } from "../../core/base/crypto";
import { newId } from "../../core/base/ids";
import { HOME_DATABASE } from "../../platform/db/databases";
import { WRITES_FROZEN_SQL } from "../../platform/db/schema/core";

export const roles = ["client", "admin"] as const;
export type Role = (typeof roles)[number];

export interface Principal {
  tenantId: string;
  keyId: string;
  role: Role;
  /** The D1 binding holding the tenant's rows (the directory, src/platform/db/databases.ts); DB when it has no entry. */
  database: string;
  /** The tenant is being moved to another database: its writes are refused until the copy is switched to. */
  writesFrozen: boolean;
}

export interface CreatedKey {
  id: string;
  key: string;
  keyPrefix: string;
  tenantId: string;
  role: Role;
  name: string;
  createdAt: number;
}

const KEY_PREFIX_LENGTH = 10;

export function generateApiKey(): string {
  return `rk_${randomToken(32)}`;
}

/**
 * Valid keys are remembered per isolate for this long, saving a D1 round trip on every request.
 * A revocation applies at once in the isolate that made it and within this time everywhere else.
 */
export const PRINCIPAL_CACHE_MS = 30_000;
const principals = new BoundedMap<string, { principal: Principal; until: number }>(10_000);

/**
 * Work read in the same round trip as a key the isolate does not know (a batch with the key's
 * row): `statement` gets the key's hash, `read` its rows once the key is known to be valid.
 */
export interface AlongsideKey {
  statement: (keyHash: string) => D1PreparedStatement;
  read: (rows: unknown[], principal: Principal) => void;
}

export async function findPrincipal(
  db: D1Database,
  key: string,
  now: number,
  cache = true,
  alongside?: AlongsideKey,
): Promise<Principal | null> {
  const hash = await sha256Hex(key);
  const hit = cache ? principals.get(hash) : undefined;
  if (hit && hit.until > now) return hit.principal;
  // The tenant's place comes with its key: placement costs no round trip of its own.
  const keyRow = db
    .prepare(
      `SELECT k.id, k.tenant_id, k.role, d.database, m.phase AS moving FROM api_keys k
       LEFT JOIN tenant_databases d ON d.tenant_id = k.tenant_id
       LEFT JOIN tenant_moves m ON m.tenant_id = k.tenant_id AND m.${WRITES_FROZEN_SQL}
       WHERE k.key_hash = ? AND k.revoked_at IS NULL`,
    )
    .bind(hash);
  type KeyRow = { id: string; tenant_id: string; role: Role; database: string | null; moving: string | null };
  let row: KeyRow | null;
  let alongsideRows: unknown[] = [];
  const together = alongside ? await db.batch<unknown>([keyRow, alongside.statement(hash)]).catch(() => null) : null;
  if (together) {
    row = (together[0]?.results[0] as KeyRow | undefined) ?? null;
    alongsideRows = together[1]?.results ?? [];
  } else {
    // Without alongside work, or when it failed: the key alone (what rode along is read again where it is needed).
    alongside = undefined;
    row = await keyRow.first<KeyRow>();
  }
  if (!row) {
    principals.delete(hash);
    return null;
  }
  const principal: Principal = {
    keyId: row.id,
    tenantId: row.tenant_id,
    role: row.role,
    database: row.database ?? HOME_DATABASE,
    writesFrozen: row.moving !== null,
  };
  alongside?.read(alongsideRows, principal);
  // Only valid keys are remembered: a key created a moment ago must work at once.
  if (cache) {
    principals.set(hash, { principal, until: now + PRINCIPAL_CACHE_MS });
  }
  return principal;
}

function forgetPrincipal(keyId: string): void {
  for (const [hash, entry] of principals) if (entry.principal.keyId === keyId) principals.delete(hash);
}

/** Forgets this isolate's keys of a tenant (its placement changed here: a move began or was switched to). */
export function forgetTenantPrincipals(tenantId: string): void {
  for (const [hash, entry] of principals) if (entry.principal.tenantId === tenantId) principals.delete(hash);
}

export async function createApiKey(
  db: D1Database,
  args: { tenantId: string; role: Role; name?: string; now: number; key?: string },
): Promise<CreatedKey> {
  const key = args.key ?? generateApiKey();
  const created: CreatedKey = {
    id: newId("key"),
    key,
    keyPrefix: key.slice(0, KEY_PREFIX_LENGTH),
    tenantId: args.tenantId,
    role: args.role,
    name: args.name ?? "",
    createdAt: args.now,
  };
  await db
    .prepare("INSERT INTO api_keys (id, tenant_id, key_hash, key_prefix, role, name, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)")
    .bind(created.id, created.tenantId, await sha256Hex(key), created.keyPrefix, created.role, created.name, created.createdAt)
    .run();
  return created;
}

export async function createTenant(db: D1Database, args: { name: string; now: number }): Promise<{ id: string; name: string }> {
  const id = newId("t");
  await db.prepare("INSERT INTO tenants (id, name, created_at) VALUES (?, ?, ?)").bind(id, args.name, args.now).run();
  return { id, name: args.name };
}

/** A tenant's keys, oldest first: at most `limit`, after the (created_at, id) position `after` when given. */
export async function listApiKeys(
  db: D1Database,
  tenantId: string,
  page: { limit: number; after?: readonly [number, string] | undefined },
) {
  const { results } = await db
    .prepare(
      `SELECT id, key_prefix, role, name, created_at, revoked_at FROM api_keys
       WHERE tenant_id = ?1 AND (?2 IS NULL OR created_at > ?2 OR (created_at = ?2 AND id > ?3)) ORDER BY created_at, id LIMIT ?4`,
    )
    .bind(tenantId, page.after?.[0] ?? null, page.after?.[1] ?? "", page.limit)
    .all<{ id: string; key_prefix: string; role: Role; name: string; created_at: number; revoked_at: number | null }>();
  return results.map((r) => ({
    id: r.id,
    keyPrefix: r.key_prefix,
    role: r.role,
    name: r.name,
    createdAt: new Date(r.created_at).toISOString(),
    revokedAt: r.revoked_at === null ? null : new Date(r.revoked_at).toISOString(),
  }));
}

/** Revokes a key of this tenant; false when there is no such (unrevoked) key. */
export async function revokeApiKey(db: D1Database, tenantId: string, keyId: string, now: number): Promise<boolean> {
  const result = await db
    .prepare("UPDATE api_keys SET revoked_at = ? WHERE id = ? AND tenant_id = ? AND revoked_at IS NULL")
    .bind(now, keyId, tenantId)
    .run();
  forgetPrincipal(keyId);
  return result.meta.changes > 0;
}

export const DEV_TENANT_ID = "t_dev";
export const DEV_KEY_ID = "key_dev";

/**
 * Local mode only (RECALL_DEV_API_KEY is set by `npm start` and the test env, never in
 * production): makes the dev key an admin key of the dev tenant, replacing an older dev key.
 */
export async function ensureDevKey(db: D1Database, devKey: string, now: number): Promise<void> {
  await db.batch([
    db
      .prepare("INSERT INTO tenants (id, name, created_at) VALUES (?, 'Local development', ?) ON CONFLICT (id) DO NOTHING")
      .bind(DEV_TENANT_ID, now),
    db
      .prepare(
        `INSERT INTO api_keys (id, tenant_id, key_hash, key_prefix, role, name, created_at)
         VALUES (?, ?, ?, ?, 'admin', 'dev key (RECALL_DEV_API_KEY)', ?)
         ON CONFLICT (id) DO UPDATE SET key_hash = excluded.key_hash, key_prefix = excluded.key_prefix, revoked_at = NULL`,
      )
      .bind(DEV_KEY_ID, DEV_TENANT_ID, await sha256Hex(devKey), devKey.slice(0, KEY_PREFIX_LENGTH), now),
  ]);
}
