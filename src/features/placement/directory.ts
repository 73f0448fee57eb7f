/**
 * The directory (docs/design/tenant-placement.md): which database holds a tenant's rows, kept in
 * the home database. Requests read it with their key (src/features/auth/keys.ts); webhooks, the
 * queue and jobs, which start from a tenant id, read it here, once per isolate and tenant every
 * PRINCIPAL_CACHE_MS, the same time a key's entry is trusted, so a move waits out both at once.
 */
import { HOME_DATABASE } from "../../platform/db/databases";
import { type Services, servicesIn } from "../../platform/ports/services";
import { PRINCIPAL_CACHE_MS } from "../auth/keys";

const MAX_CACHED = 10_000;
const cache = new Map<string, { database: string; until: number }>();

/** The binding name of the tenant's database: its directory entry, or DB without one. */
export async function databaseOfTenant(home: D1Database, tenantId: string, now: number): Promise<string> {
  const hit = cache.get(tenantId);
  if (hit && hit.until > now) return hit.database;
  const row = await home.prepare("SELECT database FROM tenant_databases WHERE tenant_id = ?").bind(tenantId).first<{ database: string }>();
  const database = row?.database ?? HOME_DATABASE;
  if (cache.size >= MAX_CACHED) cache.clear();
  cache.set(tenantId, { database, until: now + PRINCIPAL_CACHE_MS });
  return database;
}

/** The services on the tenant's database (a webhook's, a queued ticket's, a job's tenant). */
export async function servicesForTenant<S extends Services>(services: S, tenantId: string): Promise<S> {
  return servicesIn(services, await databaseOfTenant(services.home, tenantId, services.clock.now()));
}

/** Forgets what this isolate knows of placements (after one changes here; tests). */
export function forgetPlacements(): void {
  cache.clear();
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

/** How many tenants each database holds, by binding name (a database without tenants is absent). */
export async function tenantCounts(home: D1Database): Promise<Map<string, number>> {
  const { results } = await home
    .prepare(
      `SELECT coalesce(d.database, ?) AS database, count(*) AS n FROM tenants t
       LEFT JOIN tenant_databases d ON d.tenant_id = t.id GROUP BY 1`,
    )
    .bind(HOME_DATABASE)
    .all<{ database: string; n: number }>();
  return new Map(results.map((r) => [r.database, r.n]));
}
