/** Session file mentions (seed 001, part B): what a session touched, for query enrichment. */

/** At most this many file names are appended to a query (seed 001: MAX_ENRICHMENT_FILES). */
export const MAX_ENRICHMENT_FILES = 5;
/** At most this many mentions are recorded per call. */
export const MAX_FILES_PER_CALL = 200;

export interface FileMention {
  path: string;
  /** Where in the session the file was mentioned; omitted → after every earlier mention, in list order. */
  lineIndex?: number | undefined;
}

export async function recordFileMentions(db: D1Database, tenantId: string, sessionId: string, files: readonly FileMention[], now: number) {
  const last = await db
    .prepare("SELECT MAX(line_index) AS n FROM session_files WHERE tenant_id = ? AND session_id = ?")
    .bind(tenantId, sessionId)
    .first<{ n: number | null }>();
  let next = (last?.n ?? -1) + 1;
  await db.batch(
    files.map((f) =>
      db
        .prepare("INSERT INTO session_files (tenant_id, session_id, path, line_index, created_at) VALUES (?, ?, ?, ?, ?)")
        .bind(tenantId, sessionId, f.path, f.lineIndex ?? next++, now),
    ),
  );
  return files.length;
}

/** The file names (not paths: those carry machine-specific noise) the session touched last, distinct, newest first. */
export async function recentFileNames(db: D1Database, tenantId: string, sessionId: string, max = MAX_ENRICHMENT_FILES): Promise<string[]> {
  const { results } = await db
    .prepare("SELECT path FROM session_files WHERE tenant_id = ? AND session_id = ? ORDER BY line_index DESC LIMIT ?")
    .bind(tenantId, sessionId, max * 10)
    .all<{ path: string }>();
  const names: string[] = [];
  for (const { path } of results) {
    const name = path.split(/[\\/]/).filter(Boolean).pop();
    if (name && !names.includes(name)) names.push(name);
    if (names.length === max) break;
  }
  return names;
}
