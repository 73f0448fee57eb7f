/**
 * The storage boundary's errors. D1 reports a failure only as an Error whose message carries
 * SQLite's text ("D1_ERROR: UNIQUE constraint failed: tenants.id: SQLITE_CONSTRAINT"); this is the
 * one place that reads that text. Every D1 call made through Services.db goes through
 * `withStorageErrors`, so the layers above see typed errors and decide by class, never by message.
 */

export type ConstraintKind = "unique" | "foreign_key" | "not_null" | "check";

/** A write broke a schema constraint (a duplicate key, a missing parent row …). */
export class ConstraintViolation extends Error {
  override name = "ConstraintViolation";
  constructor(
    readonly constraint: ConstraintKind,
    options: { cause: unknown },
  ) {
    super(`${constraint} constraint failed`, options);
  }
}

/** D1 could not run the statement now (overloaded, busy, reset, connection lost): safe to retry later. */
export class StorageUnavailable extends Error {
  override name = "StorageUnavailable";
  constructor(options: { cause: unknown }) {
    super("the database is unavailable", options);
  }
}

const CONSTRAINTS: readonly [RegExp, ConstraintKind][] = [
  [/\b(?:UNIQUE|PRIMARY KEY) constraint failed\b/i, "unique"],
  [/\bFOREIGN KEY constraint failed\b/i, "foreign_key"],
  [/\bNOT NULL constraint failed\b/i, "not_null"],
  [/\bCHECK constraint failed\b/i, "check"],
];

/** D1's retryable failures, as documented for D1 and Durable Object storage. */
const UNAVAILABLE =
  /\b(?:SQLITE_BUSY|database is locked|overloaded|Network connection lost|storage caused object to be reset|reset because its code was updated|storage operation exceeded timeout)\b/i;

/** A D1 failure as a typed error; any other error unchanged. */
export function storageError(error: unknown): unknown {
  if (!(error instanceof Error) || error instanceof ConstraintViolation || error instanceof StorageUnavailable) return error;
  for (const [pattern, constraint] of CONSTRAINTS)
    if (pattern.test(error.message)) return new ConstraintViolation(constraint, { cause: error });
  if (UNAVAILABLE.test(error.message)) return new StorageUnavailable({ cause: error });
  return error;
}

/**
 * A D1 failure's kind and SQLite code, e.g. "D1_ERROR/SQLITE_CONSTRAINT", for log lines, which
 * never carry D1's message (it can quote a query's values); null for an error that is not D1's.
 */
export function d1ErrorCode(error: Error): string | null {
  const kind = /^(D1_[A-Z_]{1,40})\b/.exec(error.message)?.[1];
  if (!kind) return null;
  const sqlite = /\b(SQLITE_[A-Z_]{1,40})\s*$/.exec(error.message)?.[1];
  return sqlite ? `${kind}/${sqlite}` : kind;
}

async function typed<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw storageError(error);
  }
}

class TypedStatement implements D1PreparedStatement {
  constructor(readonly inner: D1PreparedStatement) {}

  bind(...values: unknown[]): D1PreparedStatement {
    return new TypedStatement(this.inner.bind(...values));
  }

  first<T = unknown>(colName: string): Promise<T | null>;
  first<T = Record<string, unknown>>(): Promise<T | null>;
  first<T>(colName?: string): Promise<T | null> {
    return typed(() => (colName === undefined ? this.inner.first<T>() : this.inner.first<T>(colName)));
  }

  run<T = Record<string, unknown>>(): Promise<D1Result<T>> {
    return typed(() => this.inner.run<T>());
  }

  all<T = Record<string, unknown>>(): Promise<D1Result<T>> {
    return typed(() => this.inner.all<T>());
  }

  raw<T = unknown[]>(options: { columnNames: true }): Promise<[string[], ...T[]]>;
  raw<T = unknown[]>(options?: { columnNames?: false }): Promise<T[]>;
  raw<T = unknown[]>(options?: { columnNames?: boolean }): Promise<[string[], ...T[]] | T[]> {
    if (options?.columnNames) return typed(() => this.inner.raw<T>({ columnNames: true }));
    return typed(() => this.inner.raw<T>());
  }
}

/** D1 whose failures arrive as ConstraintViolation / StorageUnavailable (see storageError). */
export function withStorageErrors(db: D1Database): D1Database {
  return {
    prepare: (query) => new TypedStatement(db.prepare(query)),
    // The platform's batch takes only its own statements: unwrap ours.
    batch: <T>(statements: D1PreparedStatement[]) =>
      typed(() => db.batch<T>(statements.map((s) => (s instanceof TypedStatement ? s.inner : s)))),
    exec: (query) => typed(() => db.exec(query)),
    withSession: (constraint) => db.withSession(constraint),
    dump: () => typed(() => db.dump()),
  };
}
