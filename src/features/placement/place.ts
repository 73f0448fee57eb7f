/**
 * Creating a tenant in a database (docs/design/tenant-placement.md): the one named, or the one with
 * the most room (src/core/placement/emptiest.ts), measured by what D1 reports with every answer.
 */
import { type DatabaseFill, emptiest } from "../../core/placement/emptiest";
import { HOME_DATABASE } from "../../platform/db/databases";
import type { Services } from "../../platform/ports/services";
import { createTenant } from "../auth/keys";

/** Bytes in use per database: D1 answers every query with the database's size (`meta.size_after`). */
export async function databaseFills(services: Pick<Services, "onDatabase">, names: readonly string[]): Promise<DatabaseFill[]> {
  return Promise.all(
    names.map(async (name) => {
      const { meta } = await services.onDatabase(name).db.prepare("SELECT 1").run();
      return { name, bytes: meta.size_after ?? 0 };
    }),
  );
}

/** The database a new tenant goes to: `named` when given, else the emptiest below its fill limit; null when none has room. */
export async function databaseForNewTenant(
  services: Pick<Services, "onDatabase">,
  names: readonly string[],
  named?: string,
): Promise<string | null> {
  if (named !== undefined) return named;
  return names.length === 1 ? names[0]! : emptiest(await databaseFills(services, names));
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
