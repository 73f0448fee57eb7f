/**
 * Each request's D1 session (src/platform/db/session.ts) and the `x-recall-bookmark` header that carries
 * it from one request to the next: a client that sends back the bookmark of its last answer reads
 * at least what that request wrote, even from a read replica (docs/reference/api.md#read-your-writes).
 * The header is sealed (sealed.ts): a D1 bookmark counts the writes of every tenant.
 */
import type { MiddlewareHandler } from "hono";
import { BOOKMARK_HEADER, MAX_BOOKMARKS } from "./protocol/bookmark";
import { HOME_DATABASE } from "../platform/db/databases";
import { type D1Session, envWithDatabases, openSession, parseBookmark, type SessionStart } from "../platform/db/session";
import type { AppEnv } from "./context";
import { readsOnly, routeHas } from "./route-facts";
import { loadSealingKey, seal, unseal } from "./sealed";

// The request and response header is the typed client's (Cloudflare's examples say `x-d1-bookmark`;
// ours does not name the store behind it).
export { BOOKMARK_HEADER };

/**
 * The screens: a browser sends no bookmark, and the page a form redirects to must show what the
 * form just wrote, so every /ui request (and the in-process API calls it makes) reads the primary.
 */
const PRIMARY_PATHS = /^\/ui(?:\/|$)/;

/**
 * Where a request's session starts: the caller's bookmark, else a replica for reads (GET, HEAD and
 * the routes marked `readsOnly`), else the primary.
 */
export function sessionStart(method: string, path: string, bookmarkHeader: string | undefined, readOnly = false): SessionStart {
  const bookmark = parseBookmark(bookmarkHeader);
  if (bookmark) return bookmark;
  if (PRIMARY_PATHS.test(path)) return "first-primary";
  if (method === "GET" || method === "HEAD" || readOnly) return "first-unconstrained";
  return "first-primary";
}

/**
 * Sealed values read from a request at most: an answer carries one per database its request used (the home one and the
 * tenant's placed one, src/platform/db/databases.ts), and the client sends back up to MAX_BOOKMARKS answers' worth.
 */
export const MAX_SEALED_VALUES = 2 * MAX_BOOKMARKS;

/** A sealed value names its database as `DB_1:<bookmark>`; a bare bookmark is the home database's (as before placement). */
const OF_DATABASE = /^(DB_[1-9]\d{0,2}):(.*)$/;

/** The latest D1 bookmark per database among the sealed values a client sent (comma-separated); values that are none are ignored. */
export function latestByDatabase(header: string): Map<string, string> {
  const latest = new Map<string, string>();
  for (const value of header.split(",").slice(0, MAX_SEALED_VALUES)) {
    const opened = unseal(value.trim());
    if (opened === null) continue;
    const [, name = HOME_DATABASE, text = opened] = OF_DATABASE.exec(opened) ?? [];
    const bookmark = parseBookmark(text);
    if (bookmark) latest.set(name, later(latest.get(name) ?? null, bookmark)!);
  }
  return latest;
}

/** D1 compares bookmarks as strings: the greater is the later (workerd's own session does the same). */
function later(a: string | null, b: string | null): string | null {
  if (a === null) return b;
  if (b === null) return a;
  return a.localeCompare(b) < 0 ? b : a;
}

/** The sessions of one request from outside and of the in-process calls it makes, by database. */
interface Chain {
  /** Where a database's session starts when the chain has none on it yet. */
  start: (database: string) => SessionStart;
  sessions: { database: string; session: D1Session }[];
}

const latest = (chain: Chain, database: string) =>
  chain.sessions.reduce<string | null>((max, s) => (s.database === database ? later(max, s.session.bookmark()) : max), null);

/**
 * Chains of the requests in flight, by request id. An in-process call (MCP tools, the hook, the
 * screens) keeps its outer request's id (src/http/request-id.ts): it opens its own session (on
 * its own bindings) where its caller's calls have got to, so a tool that lists after the tool that
 * wrote sees the write, and the outer answer's bookmark covers every call. The id of a request from
 * outside is always fresh, so no caller can join another's chain.
 */
const chains = new Map<string, Chain>();

/**
 * Opens the request's D1 sessions and puts them in place of the database bindings, for withServices to build the services
 * from; the answer carries the latest bookmark of each database used. Mounted just before withServices.
 */
export const d1Sessions: MiddlewareHandler<AppEnv> = async (c, next) => {
  const requestId = c.get("requestId");
  const outer = chains.get(requestId);
  const keyReady = loadSealingKey(c.env.DB);
  // Awaited where a bookmark or a cursor needs it (authenticate); a request that needs neither leaves a failed read to the next.
  keyReady.catch(() => {});
  c.set("sealingKeyRead", keyReady);
  const sent = c.req.header(BOOKMARK_HEADER);
  const received = outer || sent === undefined ? new Map<string, string>() : await keyReady.then(() => latestByDatabase(sent));
  const readOnly = routeHas(c, readsOnly);
  const chain = outer ?? { start: (database) => sessionStart(c.req.method, c.req.path, received.get(database), readOnly), sessions: [] };
  if (!outer) chains.set(requestId, chain);
  // A session on every database (opened at its first query: most requests use one or two), each where the chain has got to on it.
  c.env = envWithDatabases(c.env, (binding, database) => {
    const session = openSession(binding, latest(chain, database) ?? chain.start(database));
    chain.sessions.push({ database, session });
    return session.db;
  });
  try {
    await next();
  } finally {
    if (!outer) chains.delete(requestId);
    const bookmarks = [...new Set(chain.sessions.map((s) => s.database))].flatMap((database) => {
      const bookmark = latest(chain, database);
      return bookmark ? [database === HOME_DATABASE ? bookmark : `${database}:${bookmark}`] : [];
    });
    if (bookmarks.length > 0) c.header(BOOKMARK_HEADER, await keyReady.then(() => bookmarks.map(seal).join(", ")));
  }
};
