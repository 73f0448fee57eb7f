import { SELF } from "cloudflare:test";
import { recallClient } from "../../src/client";

/** The typed client (src/client.ts) over this Worker's real fetch handler: answers typed by the routes. */
export function apiClient(key?: string) {
  return recallClient("https://recall.test", {
    fetch: (input: RequestInfo | URL, init?: RequestInit) => SELF.fetch(input, init),
    headers: key ? { authorization: `Bearer ${key}` } : {},
  });
}
