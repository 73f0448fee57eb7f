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

/** The latest D1 bookmark among the sealed ones a client sent (comma-separated, the first MAX_BOOKMARKS); values that are none are ignored. */
export function latestSent(header: string): string | undefined {
  const opened = header
    .split(",")
    .slice(0, MAX_BOOKMARKS)
    .map((value) => parseBookmark(unseal(value.trim())));
  return opened.reduce<string | null>(later, null) ?? undefined;
}

/** D1 compares bookmarks as strings: the greater is the later (workerd's own session does the same). */
function later(a: string | null, b: string | null): string | null {
  if (a === null) return b;
  if (b === null) return a;
  return a.localeCompare(b) < 0 ? b : a;
}

/** The sessions of one request from outside and of the in-process calls it makes. */
interface Chain {
  start: SessionStart;
  sessions: D1Session[];
}

const latest = (chain: Chain) => chain.sessions.reduce<string | null>((max, s) => later(max, s.bookmark()), null);

/**
 * Chains of the requests in flight, by request id. An in-process call (MCP tools, the hook, the
 * screens) keeps its outer request's id (src/http/request-id.ts): it opens its own session (on
 * its own bindings) where its caller's calls have got to, so a tool that lists after the tool that
 * wrote sees the write, and the outer answer's bookmark covers every call. The id of a request from
 * outside is always fresh, so no caller can join another's chain.
 */
const chains = new Map<string, Chain>();

/**
 * Opens the request's D1 session and puts it in place of the DB binding, for withServices to build
 * the services from; the answer carries the latest bookmark. Mounted just before withServices.
 */
export const d1Sessions: MiddlewareHandler<AppEnv> = async (c, next) => {
  const requestId = c.get("requestId");
  const outer = chains.get(requestId);
  const keyReady = loadSealingKey(c.env.DB);
  // Awaited where a bookmark or a cursor needs it (authenticate); a request that needs neither leaves a failed read to the next.
  keyReady.catch(() => {});
  c.set("sealingKeyRead", keyReady);
  const sent = c.req.header(BOOKMARK_HEADER);
  const received = outer || sent === undefined ? undefined : await keyReady.then(() => latestSent(sent));
  const chain = outer ?? { start: sessionStart(c.req.method, c.req.path, received, routeHas(c, readsOnly)), sessions: [] };
  const session = openSession(c.env.DB, latest(chain) ?? chain.start);
  chain.sessions.push(session);
  if (!outer) chains.set(requestId, chain);
  // A placed tenant's database (src/platform/db/databases.ts) has bookmarks of its own, which the header does not carry yet:
  // a request that sent one reads that database's primary, so it still sees what its earlier requests wrote there.
  const placedStart: SessionStart = chain.start === "first-unconstrained" ? chain.start : "first-primary";
  c.env = envWithDatabases(c.env, (binding, name) => (name === HOME_DATABASE ? session.db : openSession(binding, placedStart).db));
  try {
    await next();
  } finally {
    if (!outer) chains.delete(requestId);
    const bookmark = latest(chain);
    if (bookmark) c.header(BOOKMARK_HEADER, await keyReady.then(() => seal(bookmark)));
  }
};
