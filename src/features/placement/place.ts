/**
 * Creating a tenant in a database (docs/design/tenant-placement.md): the one named, or the one with
 * the most room (src/core/placement/emptiest.ts), measured by what D1 reports with every answer.
 */
import { type DatabaseFill, emptiest, expectedTenantBytes, GROWING_DAYS } from "../../core/placement/emptiest";
import { HOME_DATABASE } from "../../platform/db/databases";
import type { Services } from "../../platform/ports/services";
import { createTenant } from "../auth/keys";
import { tenantCounts } from "./directory";

const DAY_MS = 86_400_000;

export interface DatabaseState extends DatabaseFill {
  tenants: number;
}

/**
 * Each database's bytes in use (D1 answers every query with its database's size, `meta.size_after`), its tenants and
 * how many of them are still growing (placed less than GROWING_DAYS ago).
 */
export async function databaseStates(
  services: Pick<Services, "home" | "onDatabase" | "clock">,
  names: readonly string[],
): Promise<DatabaseState[]> {
  const [sizes, counts] = await Promise.all([
    Promise.all(names.map(async (name) => (await services.onDatabase(name).db.prepare("SELECT 1").run()).meta.size_after ?? 0)),
    tenantCounts(services.home, services.clock.now() - GROWING_DAYS * DAY_MS),
  ]);
  return names.map((name, i) => {
    const count = counts.get(name);
    return { name, bytes: sizes[i]!, tenants: count?.tenants ?? 0, growingTenants: count?.growing ?? 0 };
  });
}

/** The database a new tenant goes to, among `names`: the emptiest counting growing tenants (emptiest.ts); null when none has room. */
export async function databaseForNewTenant(
  services: Pick<Services, "home" | "onDatabase" | "clock">,
  names: readonly string[],
): Promise<string | null> {
  const states = await databaseStates(services, names);
  const tenants = states.reduce((sum, s) => sum + s.tenants, 0);
  return emptiest(states, { tenantBytes: expectedTenantBytes(states, tenants) });
}

/**
 * A new tenant in `database`: its row at home (keys and the directory point at it), a copy of that row in the placed
 * database (its tables' foreign keys name the tenant), then its directory entry. It has no key yet, so nothing reaches it
 * before all three are written; a failure in between leaves a tenant nobody can use, never one split across databases.
 */
export async function createPlacedTenant(
  services: Pick<Services, "home" | "onDatabase">,
  args: { name: string; database: string; now: number },
): Promise<{ id: string; name: string; database: string }> {
  const tenant = await createTenant(services.home, args);
  if (args.database !== HOME_DATABASE) {
    await services
      .onDatabase(args.database)
      .db.prepare("INSERT INTO tenants (id, name, created_at) VALUES (?, ?, ?)")
      .bind(tenant.id, tenant.name, args.now)
      .run();
    await services.home
      .prepare("INSERT INTO tenant_databases (tenant_id, database, placed_at) VALUES (?, ?, ?)")
      .bind(tenant.id, args.database, args.now)
      .run();
  }
  return { ...tenant, database: args.database };
}
