/** D1 binds at most 100 parameters per statement: lists of ids are queried in chunks of this size. */
export const ID_CHUNK = 90;

/**
 * Rows of one tenant by id, keyed by id; ids of other tenants (or filtered out by `where`) are
 * simply absent. `from` is a trusted table name with a unique index on `id`, `columns` a trusted
 * column list, `where` a trusted condition on the table's columns written as `t.column` (json_each's
 * own columns, `id` among them, would otherwise make a bare name ambiguous).
 *
 * The ids go as one JSON parameter, and CROSS JOIN makes SQLite walk them and look each row up by
 * its id: with `tenant_id = ? AND id IN (?, …)` it chose the tenant index and scanned every row
 * of the tenant (10k memories per /v1/context call).
 */
export async function selectByIds<Row extends { id: string }>(
  db: D1Database,
  query: { from: string; columns: string; where?: string; extraColumns?: string },
  tenantId: string,
  ids: readonly string[],
): Promise<Map<string, Row>> {
  const rows = new Map<string, Row>();
  if (ids.length === 0) return rows;
  const columns = query.columns
    .split(",")
    .map((c) => `t.${c.trim()}`)
    .join(", ")
    .concat(query.extraColumns ? `, ${query.extraColumns}` : "");
  const extra = query.where ? ` AND (${query.where})` : "";
  const { results } = await db
    .prepare(`SELECT ${columns} FROM json_each(?2) AS j CROSS JOIN ${query.from} AS t ON t.id = j.value WHERE t.tenant_id = ?1${extra}`)
    .bind(tenantId, JSON.stringify(ids))
    .all<Row>();
  for (const row of results) rows.set(row.id, row);
  return rows;
}
