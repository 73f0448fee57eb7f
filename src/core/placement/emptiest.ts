/**
 * Where a new tenant goes (issue 48, docs/design/tenant-placement.md): the database with the most
 * room left. A new tenant is empty, so its own size cannot guide the choice; what can is how full
 * each database already is. Databases at or above `fullAt` of their limit take no new tenant.
 */

export interface DatabaseFill {
  /** The binding's name: DB, DB_1, … */
  name: string;
  /** Bytes in use now (D1's `meta.size_after`). */
  bytes: number;
}

/** D1's limit for one database (docs/guides/scaling.md). */
export const D1_LIMIT_BYTES = 10 * 1000 ** 3;

/**
 * A database this full takes no new tenant: its tenants keep growing, and moving one out of a full
 * database is slower than never placing it there (the guide's "add a database" point).
 */
export const NEW_TENANT_FULL_AT = 0.8;

/** The emptiest database below `fullAt` of `limit` (ties: the first named); null when all are that full. */
export function emptiest(
  databases: readonly DatabaseFill[],
  { limit = D1_LIMIT_BYTES, fullAt = NEW_TENANT_FULL_AT }: { limit?: number; fullAt?: number } = {},
): string | null {
  let best: DatabaseFill | null = null;
  for (const database of databases) {
    if (database.bytes >= limit * fullAt) continue;
    if (!best || database.bytes < best.bytes) best = database;
  }
  return best?.name ?? null;
}
