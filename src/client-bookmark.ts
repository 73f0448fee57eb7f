/**
 * Read-your-writes for the typed client (src/client.ts). Every answer carries the D1 bookmark of
 * the request's session (`x-recall-bookmark`, src/http/bookmark.ts); the client keeps the latest it
 * has seen and sends it with each request, so a read served by a read replica still sees the
 * client's own earlier writes.
 */

/** The header that carries a bookmark both ways (the Worker's src/http/bookmark.ts reads and writes it). */
export const BOOKMARK_HEADER = "x-recall-bookmark";

type Fetch = (input: RequestInfo | URL, init?: RequestInit) => Promise<Response>;

/**
 * Wraps `fetchImpl`: sends the latest bookmark seen (unless the request sets one itself) and keeps
 * the latest of the answers'. Answers of concurrent requests may arrive out of order; D1 compares
 * bookmarks as strings, the greater being the later, so an older one never replaces a newer.
 */
export function carryBookmarks(fetchImpl: Fetch): Fetch {
  let latest: string | null = null;
  return async (input, init) => {
    let sent = init;
    if (latest !== null) {
      const headers = new Headers(init?.headers ?? (input instanceof Request ? input.headers : undefined));
      if (!headers.has(BOOKMARK_HEADER)) {
        headers.set(BOOKMARK_HEADER, latest);
        sent = { ...init, headers };
      }
    }
    const response = await fetchImpl(input, sent);
    const bookmark = response.headers.get(BOOKMARK_HEADER);
    if (bookmark && (latest === null || latest.localeCompare(bookmark) < 0)) latest = bookmark;
    return response;
  };
}
