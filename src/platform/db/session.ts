/**
 * D1 read replication (docs/guides/deploy.md#read-replication). Queries made through a D1 session
 * (`withSession`) may be served by a read replica near the Worker; the session keeps them
 * sequentially consistent, and its bookmark, handed to the next session, makes that one see at
 * least everything this one saw or wrote. Without a session every query goes to the primary.
 *
 * A session is handed to the rest of the code as a plain D1Database (prepare, batch), so nothing
 * above this file knows whether replicas exist: the local stack and a database without
 * replication behave exactly as before.
 */

/** Where a session starts: a constraint, or a bookmark from an earlier session. */
import { databaseNames, HOME_DATABASE } from "./databases";

export type SessionStart = D1SessionConstraint | D1SessionBookmark;

export interface D1Session {
  /** The session as a D1Database: what Services.db and the exact vector index use. */
  readonly db: D1Database;
  /** The latest bookmark of the session (null before its first query when it started from a constraint). */
  bookmark(): string | null;
}

/**
 * D1's bookmark form, e.g. "00000001-00000002-00004e2f-0a83ea2fceebc654de0640c422be4653". A
 * header is only used when it has this form: D1 refuses a malformed bookmark on the first query,
 * and a caller's typo must not turn its request into a 500.
 */
const BOOKMARK = /^[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{32}$/i;

/** The bookmark a caller sent, or null when it sent none or one that is not a D1 bookmark. */
export function parseBookmark(value: string | undefined | null): D1SessionBookmark | null {
  const trimmed = value?.trim();
  return trimmed && BOOKMARK.test(trimmed) ? trimmed : null;
}

/**
 * A session on `db`, opened at its first query: a request that never reaches D1 (a rate limit,
 * a bad key, a route answered from memory) never touches the binding. A binding without
 * `withSession` (an older runtime) is used as it is: every query on the primary, no bookmark.
 */
export function openSession(db: D1Database, start: SessionStart): D1Session {
  let session: D1DatabaseSession | null | undefined;
  const target = () => (session ??= typeof db.withSession === "function" ? db.withSession(start) : null) ?? db;
  return {
    db: {
      prepare: (query) => target().prepare(query),
      batch: <T>(statements: D1PreparedStatement[]) => target().batch<T>(statements),
      // A session has neither: DDL and dumps go to the primary, as they would without replication.
      exec: (query) => db.exec(query),
      dump: () => db.dump(),
      withSession: (constraint) => db.withSession(constraint),
    },
    bookmark: () => session?.getBookmark() ?? null,
  };
}

/**
 * `env` with DB replaced by `db`. Every other own property is kept as it is, symbol-keyed ones
 * included: a request's env may carry more than its bindings (the request's I/O trace), and a
 * spread would drop what is not enumerable.
 */
export function envWithDb<E extends { DB: D1Database }>(env: E, db: D1Database): E {
  return envWithDatabases(env, (binding, name) => (name === HOME_DATABASE ? db : binding), [HOME_DATABASE]);
}

/** `env` with each of the deployment's D1 databases (src/platform/db/databases.ts) replaced by `replace(binding, name)`. */
export function envWithDatabases<E extends { DB: D1Database }>(
  env: E,
  replace: (binding: D1Database, name: string) => D1Database,
  names: readonly string[] = databaseNames(env),
): E {
  const copy = Object.create(Object.getPrototypeOf(env) as object | null, Object.getOwnPropertyDescriptors(env)) as E;
  for (const name of names) {
    const value = replace((env as Record<string, unknown>)[name] as D1Database, name);
    Object.defineProperty(copy, name, { value, enumerable: true, configurable: true, writable: true });
  }
  return copy;
}

/**
 * The Worker's bindings with each database replaced by a session on it, for createServices. Jobs
 * (cron, the queue consumer) start "first-primary": they read, decide and write, and a lagging
 * replica would make them decide on old rows.
 */
export function envInSession<E extends { DB: D1Database }>(env: E, start: SessionStart): E {
  return envWithDatabases(env, (binding) => openSession(binding, start).db);
}
