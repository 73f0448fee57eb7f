/**
 * The rows a tenant's move carries (src/features/placement/move.ts): which tables, a page of them as
 * read, the statements that write one into another database, and deleting them in batches.
 */

export type Row = Record<string, unknown>;

/** A tenant table moved with the tenant; `seq` tables number their rows, and their full-text rows are keyed by it. */
export interface MovedTable {
  name: string;
  seq?: boolean;
  fts?: { table: string; columns: readonly string[] };
}

/** Every table holding a tenant's own rows (the home database keeps keys, webhook authentication and calibration). */
export const MOVED_TABLES: readonly MovedTable[] = [
  { name: "tenant_settings" },
  { name: "memories", seq: true, fts: { table: "memories_fts", columns: ["body"] } },
  { name: "memory_cards" },
  { name: "session_files" },
  { name: "metric_counters" },
  { name: "latency_samples" },
  { name: "faqs", seq: true, fts: { table: "faqs_fts", columns: ["question", "answer"] } },
  { name: "faq_variants", seq: true, fts: { table: "faq_variants_fts", columns: ["body"] } },
  { name: "faq_versions" },
  { name: "faq_hits" },
  { name: "faq_relationships" },
  { name: "faq_suggestions" },
  { name: "tickets", seq: true },
  { name: "staging_items", seq: true },
  { name: "show_archive" },
  { name: "idempotency_keys" },
  { name: "vectors" },
];

/** Rows the triggers of the moved tables keep: not copied, deleted with the tenant's rows. */
const DERIVED_TABLES = ["faq_row_versions", "vector_collections"] as const;

/** Rows per D1 batch: a row and its full-text row are two statements, and a 1024-d vector row is 4 KB. */
export const MOVE_BATCH_ROWS = 50;

/** A page of the tenant's rows in rowid order, each with its rowid (`__rowid`) and its full-text columns (`__fts_<column>`). */
export async function readPage(
  db: D1Database,
  table: MovedTable,
  tenantId: string,
  after: number,
  limit = MOVE_BATCH_ROWS,
): Promise<Row[]> {
  const fts = table.fts;
  const ftsColumns = fts ? fts.columns.map((c) => `, f.${c} AS __fts_${c}`).join("") : "";
  const join = fts ? `LEFT JOIN ${fts.table} f ON f.rowid = t.rowid` : "";
  const { results } = await db
    .prepare(
      `SELECT t.rowid AS __rowid, t.*${ftsColumns} FROM ${table.name} t ${join} WHERE t.tenant_id = ? AND t.rowid > ? ORDER BY t.rowid LIMIT ?`,
    )
    .bind(tenantId, after, limit)
    .all<Row>();
  return results;
}

/** The row's own columns: no rowid, no `seq` (the target numbers its rows), no full-text columns. */
export function ownColumns(table: MovedTable, row: Row): string[] {
  return Object.keys(row).filter((c) => c !== "__rowid" && !c.startsWith("__fts_") && !(table.seq && c === "seq"));
}

/** D1 reads a BLOB as an array of bytes; it binds bytes as a typed array. */
const bindable = (value: unknown) => (Array.isArray(value) ? Uint8Array.from(value as number[]) : value);

export function insertStatements(db: D1Database, table: MovedTable, row: Row): D1PreparedStatement[] {
  const columns = ownColumns(table, row);
  const insert = db
    .prepare(`INSERT INTO ${table.name} (${columns.join(", ")}) VALUES (${columns.map(() => "?").join(", ")})`)
    .bind(...columns.map((c) => bindable(row[c])));
  const fts = table.fts;
  // A row without a full-text row (a deleted FAQ) has none in the target either.
  if (!fts || row[`__fts_${fts.columns[0]}`] === null) return [insert];
  // last_insert_rowid() is the row's new seq: a trigger's own inserts do not change it once the trigger is done.
  const ftsInsert = db
    .prepare(
      `INSERT INTO ${fts.table} (rowid, ${fts.columns.join(", ")}) VALUES (last_insert_rowid(), ${fts.columns.map(() => "?").join(", ")})`,
    )
    .bind(...fts.columns.map((c) => row[`__fts_${c}`]));
  return [insert, ftsInsert];
}

/**
 * Deletes a batch of the tenant's rows in `db`, the moved tables' (with their full-text rows) and then the derived ones;
 * true once none is left.
 */
export async function deleteSomeRows(db: D1Database, tenantId: string): Promise<boolean> {
  for (const table of MOVED_TABLES) {
    const some = `SELECT rowid FROM ${table.name} WHERE tenant_id = ?1 ORDER BY rowid LIMIT ${MOVE_BATCH_ROWS}`;
    const statements = [db.prepare(`DELETE FROM ${table.name} WHERE rowid IN (${some})`).bind(tenantId)];
    if (table.fts) statements.unshift(db.prepare(`DELETE FROM ${table.fts.table} WHERE rowid IN (${some})`).bind(tenantId));
    const results = await db.batch(statements);
    if ((results.at(-1)?.meta.changes ?? 0) > 0) return false;
  }
  await db.batch(DERIVED_TABLES.map((name) => db.prepare(`DELETE FROM ${name} WHERE tenant_id = ?`).bind(tenantId)));
  return true;
}
