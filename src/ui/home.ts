/**
 * GET / : where to go from the bare address. A browser gets a small page, a client asking for JSON
 * the same links as JSON: the screens (/ui), the API reference (/docs, /openapi.json) and the
 * health check (/healthz). Public and static: it names no tenant, key or adapter. Not part of the
 * API (the API is /v1), so it is left out of the OpenAPI document, as /ui is.
 */
import { Hono } from "hono";
import { html } from "hono/html";
import { stylesheet } from "./assets";
import type { AppEnv } from "../http/context";
import { notInApiDocument } from "../http/openapi/describe";

const LINKS = {
  ui: { href: "/ui", title: "Screens", text: "the producer console and the FAQ review desk (sign in with an API key)" },
  docs: { href: "/docs", title: "API reference", text: "every /v1 route, its schemas and errors (also as /openapi.json)" },
  openapi: { href: "/openapi.json", title: "OpenAPI document", text: "the same reference, machine-readable" },
  health: { href: "/healthz", title: "Health", text: "liveness and the active adapters" },
} as const;

/** The page links one stylesheet of this Worker and nothing else: no script, no inline style. */
const PAGE_CSP = "default-src 'none'; style-src 'self'; img-src 'self' data:; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

/** JSON only when asked for it before HTML (curl's default Accept: *\/* gets the page, as a browser does). */
function wantsJson(accept: string | undefined): boolean {
  if (!accept) return false;
  const json = accept.indexOf("application/json");
  const page = accept.indexOf("text/html");
  return json !== -1 && (page === -1 || json < page);
}

export const home = new Hono<AppEnv>().get(
  "/",
  notInApiDocument("The start page: links to the screens (/ui), the API reference (/docs) and /healthz; not part of the JSON API."),
  (c) => {
    c.header("vary", "accept");
    if (wantsJson(c.req.header("accept")))
      return c.json({ service: "recall", links: Object.fromEntries(Object.entries(LINKS).map(([k, l]) => [k, l.href])) });
    c.header("content-security-policy", PAGE_CSP);
    return c.html(html`<!doctype html>
      <html lang="en">
        <head>
          <meta charset="utf-8" />
          <meta name="viewport" content="width=device-width, initial-scale=1" />
          <title>Recall</title>
          <link rel="icon" href="data:," />
          <link rel="stylesheet" href="${stylesheet.path}" />
        </head>
        <body>
          <header class="top"><a class="brand" href="/ui">Recall</a></header>
          <main id="main">
            <div class="card signin">
              <h1>Recall</h1>
              <p class="muted">Question memory and FAQ retrieval. The API is under <code>/v1</code>; start here:</p>
              <ul class="list-plain">
                ${Object.values(LINKS).map((l) => html`<li><a href="${l.href}"><b>${l.title}</b></a> <span class="small muted">· ${l.text}</span></li>`)}
              </ul>
            </div>
          </main>
        </body>
      </html>`);
  },
);
