import { describe, expect, it } from "vitest";
import { BOOKMARK_HEADER as CLIENT_HEADER, carryBookmarks } from "../../src/http/protocol/bookmark";
import { parseBookmark } from "../../src/platform/db/session";
import { BOOKMARK_HEADER, sessionStart } from "../../src/http/bookmark";
import { readsOnly } from "../../src/http/route-facts";
import { createApp } from "../../src/app/app";

const B1 = "00000001-00000002-00004e2f-0a83ea2fceebc654de0640c422be4653";
const B2 = "00000001-00000003-00000001-0a83ea2fceebc654de0640c422be4653";

/** A fetch that records the bookmark each request carried and answers the bookmarks given, in turn. */
function recordingFetch(answers: (string | null)[]) {
  const sent: (string | null)[] = [];
  const fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    sent.push(new Request(input, init).headers.get(BOOKMARK_HEADER));
    const bookmark = answers.shift() ?? null;
    return new Response("{}", { headers: bookmark ? { [BOOKMARK_HEADER]: bookmark } : {} });
  };
  return { sent, fetch };
}

describe("carryBookmarks (the typed client)", () => {
  it("sends back the latest bookmark it was answered, and none before the first", async () => {
    const { sent, fetch } = recordingFetch([B1, B2, null]);
    const carried = carryBookmarks(fetch);
    await carried("https://recall.test/v1/memories", { method: "POST", headers: { authorization: "Bearer k" } });
    await carried("https://recall.test/v1/memories/m1");
    await carried("https://recall.test/v1/memories/m1");
    await carried("https://recall.test/v1/memories/m1");
    expect(sent).toEqual([null, B1, B2, B2]);
  });

  it("holds the bookmarks of requests that ran side by side and sends them all, then only the answer's", async () => {
    const sent: (string | null)[] = [];
    const answers = new Map<string, (bookmark: string) => void>();
    const carried = carryBookmarks(async (input, init) => {
      const request = new Request(input, init);
      sent.push(request.headers.get(BOOKMARK_HEADER));
      const bookmark = await new Promise<string>((resolve) => answers.set(new URL(request.url).pathname, resolve));
      return new Response("{}", { headers: { [BOOKMARK_HEADER]: bookmark } });
    });
    const [a, b] = [carried("https://recall.test/a"), carried("https://recall.test/b")];
    await Promise.resolve();
    // Sealed bookmarks cannot be ordered by the client: answered out of order, both are held.
    answers.get("/b")!("sealed-b");
    await b;
    answers.get("/a")!("sealed-a");
    await a;
    const c = carried("https://recall.test/c");
    await Promise.resolve();
    answers.get("/c")!("sealed-c");
    await c;
    const d = carried("https://recall.test/d");
    await Promise.resolve();
    answers.get("/d")!("sealed-d");
    await d;
    // The answer to c covers both it sent: d carries that answer alone.
    expect(sent).toEqual([null, null, "sealed-b, sealed-a", "sealed-c"]);
  });

  it("leaves a bookmark the request sets itself, and keeps the request's other headers", async () => {
    const seen: Headers[] = [];
    const carried = carryBookmarks(async (input, init) => {
      seen.push(new Request(input, init).headers);
      return new Response("{}", { headers: { [BOOKMARK_HEADER]: B2 } });
    });
    await carried("https://recall.test/a");
    await carried("https://recall.test/b", { headers: { [BOOKMARK_HEADER]: B1, authorization: "Bearer k" } });
    await carried(new Request("https://recall.test/c", { headers: { authorization: "Bearer k" } }));
    expect(seen[1]!.get(BOOKMARK_HEADER)).toBe(B1);
    expect(seen[2]!.get(BOOKMARK_HEADER)).toBe(B2);
    expect(seen[2]!.get("authorization")).toBe("Bearer k");
  });

  it("uses the Worker's header name", () => {
    expect(CLIENT_HEADER).toBe(BOOKMARK_HEADER);
  });
});

describe("sessionStart", () => {
  it("starts from the caller's bookmark whatever the route", () => {
    expect(sessionStart("POST", "/v1/memories", B1)).toBe(B1);
    expect(sessionStart("GET", "/v1/faqs", ` ${B1} `)).toBe(B1);
  });

  it("lets reads start on any replica and everything else on the primary", () => {
    expect(sessionStart("GET", "/v1/faqs/f1", undefined)).toBe("first-unconstrained");
    // A POST that only reads: its route is marked readsOnly (src/http/route-facts.ts).
    expect(sessionStart("POST", "/v1/faqs/search", undefined, true)).toBe("first-unconstrained");
    expect(sessionStart("POST", "/v1/context", undefined, true)).toBe("first-unconstrained");
    expect(sessionStart("POST", "/v1/memories", undefined)).toBe("first-primary");
    expect(sessionStart("POST", "/v1/questions/similar", undefined)).toBe("first-primary");
    expect(sessionStart("DELETE", "/v1/memories/m1", undefined)).toBe("first-primary");
    // The screens: a browser carries no bookmark, and a form's redirect must show its write.
    expect(sessionStart("GET", "/ui/faqs", undefined)).toBe("first-primary");
  });

  it("marks as reading only the POSTs that write nothing", () => {
    const marked = createApp()
      .routes.filter((route) => route.handler === readsOnly)
      .map((route) => `${route.method} ${route.path}`);
    expect(marked.sort()).toEqual([
      "POST /v1/context",
      "POST /v1/faqs/search",
      "POST /v1/memories/search",
      "POST /v1/query/analyze",
      "POST /v1/similarity/explain",
    ]);
  });

  it("ignores a header that is not a D1 bookmark", () => {
    expect(parseBookmark("first-primary")).toBeNull();
    expect(parseBookmark("garbage")).toBeNull();
    expect(parseBookmark("")).toBeNull();
    expect(sessionStart("GET", "/v1/faqs", "not-a-bookmark")).toBe("first-unconstrained");
  });
});
