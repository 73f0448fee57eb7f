/**
 * The show Durable Object's SQLite schema, versioned: an ordered list of migrations, each applied
 * once, in its own transaction with the row that records it in `_migrations`. The object runs
 * `migrateShowStorage` when it wakes (inside blockConcurrencyWhile, before any request), so an
 * object stored by an older deployment is brought up to date in place. A migration never drops or
 * rewrites data that a query could read; to change a table, add a migration at the end (never edit
 * or reorder an applied one).
 */

export interface ShowMigration {
  version: number;
  name: string;
  up: (sql: SqlStorage) => void;
}

export const SHOW_MIGRATIONS: readonly ShowMigration[] = [
  {
    version: 1,
    name: "show_questions_and_meta",
    // IF NOT EXISTS: objects created before the schema was versioned already hold these tables (and their rows).
    up: (sql) => {
      sql.exec(`CREATE TABLE IF NOT EXISTS show_questions (
        seq INTEGER PRIMARY KEY,
        id TEXT NOT NULL UNIQUE,
        text TEXT NOT NULL,
        model TEXT,
        confidence REAL,
        asked_at INTEGER NOT NULL,
        was_used INTEGER NOT NULL DEFAULT 0,
        used_at INTEGER,
        topic_tags TEXT NOT NULL DEFAULT '[]',
        embedding BLOB,
        embedding_model TEXT,
        novelty REAL,
        source TEXT NOT NULL,
        forgotten_at INTEGER
      )`);
      sql.exec("CREATE INDEX IF NOT EXISTS show_questions_asked_idx ON show_questions (asked_at)");
      sql.exec("CREATE TABLE IF NOT EXISTS show_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)");
    },
  },
  {
    version: 2,
    name: "retire_placeholder_questions_table",
    // The foundation's placeholder `questions` table had no write path. It used to be dropped on every
    // wake; now it goes once, and only when empty (a table holding rows is left for an operator to look at).
    up: (sql) => {
      const exists = sql.exec("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'questions'").toArray().length > 0;
      if (exists && sql.exec<{ n: number }>("SELECT COUNT(*) AS n FROM questions").one().n === 0) sql.exec("DROP TABLE questions");
    },
  },
  {
    version: 3,
    name: "show_rankings_and_overrides",
    // Rankings are kept so a console can show a ranking again (its own URL, reloads) and list what the
    // producer's AI ranked; overrides record who used a filtered question anyway, and when (seed 004).
    // IF NOT EXISTS like version 1: re-running it on storage that has the tables changes nothing.
    up: (sql) => {
      sql.exec(`CREATE TABLE IF NOT EXISTS show_rankings (
        seq INTEGER PRIMARY KEY,
        id TEXT NOT NULL UNIQUE,
        ranked_at INTEGER NOT NULL,
        ranked_by TEXT NOT NULL,
        body TEXT NOT NULL
      )`);
      sql.exec("CREATE INDEX IF NOT EXISTS show_rankings_at_idx ON show_rankings (ranked_at)");
      sql.exec(`CREATE TABLE IF NOT EXISTS show_overrides (
        seq INTEGER PRIMARY KEY,
        id TEXT NOT NULL UNIQUE,
        question_id TEXT NOT NULL,
        text TEXT NOT NULL,
        against_id TEXT NOT NULL,
        against_text TEXT NOT NULL,
        ranking_id TEXT,
        overridden_by TEXT NOT NULL,
        overridden_at INTEGER NOT NULL
      )`);
      sql.exec("CREATE INDEX IF NOT EXISTS show_overrides_ranking_idx ON show_overrides (ranking_id, text)");
    },
  },
];

/** The version the storage is at: the highest migration recorded (0 for a new or pre-versioning object). */
export function showSchemaVersion(sql: SqlStorage): number {
  sql.exec("CREATE TABLE IF NOT EXISTS _migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL)");
  return sql.exec<{ v: number | null }>("SELECT MAX(version) AS v FROM _migrations").one().v ?? 0;
}

/** Applies the migrations the storage has not seen, in order; returns the versions applied. */
export function migrateShowStorage(
  sql: SqlStorage,
  transaction: <T>(fn: () => T) => T,
  migrations: readonly ShowMigration[] = SHOW_MIGRATIONS,
  now: number = Date.now(),
): number[] {
  const current = showSchemaVersion(sql);
  const pending = migrations.filter((m) => m.version > current).sort((a, b) => a.version - b.version);
  for (const migration of pending) {
    transaction(() => {
      migration.up(sql);
      sql.exec("INSERT INTO _migrations (version, name, applied_at) VALUES (?, ?, ?)", migration.version, migration.name, now);
    });
  }
  return pending.map((m) => m.version);
}
