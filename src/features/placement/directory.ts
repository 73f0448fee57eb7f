/**
 * The directory (docs/design/tenant-placement.md): which database holds a tenant's rows, kept in
 * the home database. Requests read it with their key (src/features/auth/keys.ts); webhooks, the
 * queue and jobs, which start from a tenant id, read it here, once per isolate and tenant every
 * PRINCIPAL_CACHE_MS, the same time a key's entry is trusted, so a move waits out both at once.
 */
import { BoundedMap } from "../../core/base/bounded-map";
import { HOME_DATABASE } from "../../platform/db/databases";
import { type Services, servicesIn } from "../../platform/ports/services";
import { WRITES_FROZEN_SQL } from "../../platform/db/schema/core";
import { PRINCIPAL_CACHE_MS } from "../auth/keys";

const cache = new BoundedMap<string, { placement: Placement; until: number }>(10_000);

export interface Placement {
  /** The binding name of the tenant's database: its directory entry, or DB without one. */
  database: string;
  /** A move of the tenant is copying its rows: writes wait (src/features/placement/move.ts). */
  writesFrozen: boolean;
}

/** Where the tenant's rows are, and whether a move holds its writes. */
export async function placementOf(home: D1Database, tenantId: string, now: number): Promise<Placement> {
  const hit = cache.get(tenantId);
  if (hit && hit.until > now) return hit.placement;
  const row = await home
    .prepare(
      `SELECT (SELECT database FROM tenant_databases WHERE tenant_id = ?1) AS database,
              EXISTS (SELECT 1 FROM tenant_moves WHERE tenant_id = ?1 AND ${WRITES_FROZEN_SQL}) AS frozen`,
    )
    .bind(tenantId)
    .first<{ database: string | null; frozen: number }>();
  const placement = { database: row?.database ?? HOME_DATABASE, writesFrozen: row?.frozen === 1 };
  cache.set(tenantId, { placement, until: now + PRINCIPAL_CACHE_MS });
  return placement;
}

/** The services on the tenant's database (a job's tenant). */
export async function servicesForTenant<S extends Services>(services: S, tenantId: string): Promise<S> {
  return servicesIn(services, (await placementOf(services.home, tenantId, services.clock.now())).database);
}

/** Forgets what this isolate knows of a tenant's placement (a move of it changed phase here). */
export function forgetPlacement(tenantId: string): void {
  cache.delete(tenantId);
}

/** The ids of the tenants whose rows are in the services' database, in id order: what a job run per database goes through. */
export async function tenantsPlacedHere(services: Pick<Services, "home" | "database">): Promise<string[]> {
  const { results } = await services.home
    .prepare(
      `SELECT t.id FROM tenants t LEFT JOIN tenant_databases d ON d.tenant_id = t.id
       WHERE coalesce(d.database, ?1) = ?2 ORDER BY t.id`,
    )
    .bind(HOME_DATABASE, services.database)
    .all<{ id: string }>();
  return results.map((r) => r.id);
}

/** Per database (by binding name): its tenants, and how many of them were placed there since `growingSince`. */
export async function tenantCounts(home: D1Database, growingSince: number): Promise<Map<string, { tenants: number; growing: number }>> {
  const { results } = await home
    .prepare(
      `SELECT coalesce(d.database, ?1) AS database, count(*) AS tenants,
              sum(coalesce(d.placed_at, t.created_at) >= ?2) AS growing
       FROM tenants t LEFT JOIN tenant_databases d ON d.tenant_id = t.id GROUP BY 1`,
    )
    .bind(HOME_DATABASE, growingSince)
    .all<{ database: string; tenants: number; growing: number }>();
  return new Map(results.map((r) => [r.database, { tenants: r.tenants, growing: r.growing }]));
}
