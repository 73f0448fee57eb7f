/**
 * Where a new tenant goes (issue 48, docs/design/tenant-placement.md): the database with the most
 * room left once the tenants still growing in it are counted at what a tenant grows to.
 *
 * A new tenant is empty, and so is every tenant placed a month ago: placing by bytes in use alone
 * keeps choosing the database that took the last tenants, until they grow and it overflows. The
 * simulation (`node bench/placement-sim.mjs`, docs/reports/placement.md) showed it: by bytes alone
 * every database went past its limit; counting each tenant of its first year at no less than the
 * typical tenant kept them inside it.
 */

export interface DatabaseFill {
  /** The binding's name: DB, DB_1, … */
  name: string;
  /** Bytes in use now (D1's `meta.size_after`). */
  bytes: number;
  /** Tenants placed in it less than GROWING_DAYS ago. */
  growingTenants: number;
}

/** D1's limit for one database (docs/guides/scaling.md). */
export const D1_LIMIT_BYTES = 10 * 1000 ** 3;

/**
 * A database this full, counted with its growing tenants' expected room, takes no new tenant: its
 * tenants keep growing, and moving one out of a full database is slower than never placing it there.
 */
export const NEW_TENANT_FULL_AT = 0.8;

/** How long a tenant counts as growing: the capacity report's profiles are a year of use. */
export const GROWING_DAYS = 365;

/**
 * The least room a growing tenant is expected to take: the scaling guide's support desk (2,000
 * FAQs and 20,000 tickets, about 100 MiB), the smaller of its two measured profiles.
 */
export const TENANT_ROOM_FLOOR_BYTES = 100 * 1024 ** 2;

/** The room a growing tenant is expected to take: the deployment's bytes per tenant, at least the floor. */
export function expectedTenantBytes(databases: readonly DatabaseFill[], tenants: number): number {
  const bytes = databases.reduce((sum, d) => sum + d.bytes, 0);
  return Math.max(TENANT_ROOM_FLOOR_BYTES, tenants > 0 ? bytes / tenants : 0);
}

/**
 * The database with the most room once each growing tenant counts `tenantBytes` on top of the
 * bytes in use, among those still below `fullAt` of `limit` so counted (ties: the first named);
 * null when none is.
 */
export function emptiest(
  databases: readonly DatabaseFill[],
  {
    tenantBytes = TENANT_ROOM_FLOOR_BYTES,
    limit = D1_LIMIT_BYTES,
    fullAt = NEW_TENANT_FULL_AT,
  }: { tenantBytes?: number; limit?: number; fullAt?: number } = {},
): string | null {
  let best: { name: string; projected: number } | null = null;
  for (const database of databases) {
    const projected = database.bytes + database.growingTenants * tenantBytes;
    if (projected >= limit * fullAt) continue;
    if (!best || projected < best.projected) best = { name: database.name, projected };
  }
  return best?.name ?? null;
}
