/**
 * Read-your-writes for the typed client (src/client/client.ts). Every answer carries the bookmark of the
 * request's D1 session, sealed (`x-recall-bookmark`, src/http/bookmark.ts): the client cannot read
 * or order them, so it sends back every bookmark it holds, comma-separated, and the Worker starts
 * the request's session from the latest of them. An answer's bookmark covers all its request sent,
 * so those are dropped when it arrives: the client holds one bookmark, or a few while requests run
 * side by side and answer out of order.
 */

/** The header that carries bookmarks both ways (the Worker's src/http/bookmark.ts reads and writes it). */
export const BOOKMARK_HEADER = "x-recall-bookmark";

/** Bookmarks sent at most (the Worker reads as many): more requests in flight than this lose only the oldest. */
export const MAX_BOOKMARKS = 16;

type Fetch = (input: RequestInfo | URL, init?: RequestInit) => Promise<Response>;

/** Wraps `fetchImpl`: sends the bookmarks held (unless the request sets the header itself) and holds each answer's. */
export function carryBookmarks(fetchImpl: Fetch): Fetch {
  let held: string[] = [];
  return async (input, init) => {
    let sent = init;
    let carried: readonly string[] = [];
    if (held.length > 0) {
      const headers = new Headers(init?.headers ?? (input instanceof Request ? input.headers : undefined));
      if (!headers.has(BOOKMARK_HEADER)) {
        carried = held;
        headers.set(BOOKMARK_HEADER, carried.join(", "));
        sent = { ...init, headers };
      }
    }
    const response = await fetchImpl(input, sent);
    const bookmark = response.headers.get(BOOKMARK_HEADER);
    if (bookmark) held = [...held.filter((b) => !carried.includes(b) && b !== bookmark), bookmark].slice(-MAX_BOOKMARKS);
    return response;
  };
}
