/** D1 binds at most 100 parameters per statement: lists of ids are queried in chunks of this size. */
export const ID_CHUNK = 90;

/**
 * Rows of one tenant by id, keyed by id; ids of other tenants (or filtered out by `where`) are
 * simply absent. `from` is a trusted table name, `columns` a trusted column list.
 */
export async function selectByIds<Row extends { id: string }>(
  db: D1Database,
  query: { from: string; columns: string; where?: string },
  tenantId: string,
  ids: readonly string[],
): Promise<Map<string, Row>> {
  const rows = new Map<string, Row>();
  if (ids.length === 0) return rows;
  const extra = query.where ? ` AND ${query.where}` : "";
  const statements: D1PreparedStatement[] = [];
  for (let i = 0; i < ids.length; i += ID_CHUNK) {
    const chunk = ids.slice(i, i + ID_CHUNK);
    statements.push(
      db
        .prepare(`SELECT ${query.columns} FROM ${query.from} WHERE tenant_id = ?${extra} AND id IN (${chunk.map(() => "?").join(",")})`)
        .bind(tenantId, ...chunk),
    );
  }
  // One round trip for every chunk.
  for (const { results } of await db.batch<Row>(statements)) for (const row of results) rows.set(row.id, row);
  return rows;
}
