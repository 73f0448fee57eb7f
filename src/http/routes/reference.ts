/**
 * GET /openapi.json (the OpenAPI 3.1 document of this app), GET /docs (the reference, rendered from
 * it on the server: no script) and GET /docs/try (Swagger UI over it, to try requests). All public.
 * Swagger UI's script and stylesheet are swagger-ui-dist's own files, served as Workers static
 * assets under /reference/ (copied from node_modules by scripts/reference-assets.mjs), so every
 * page works offline: no CDN.
 */
import { Hono } from "hono";
import { z } from "zod";
import type { AppEnv } from "../context";
import { describe } from "../openapi/describe";
import { openApiDocument } from "../docs/document";
import { ReferencePage } from "../reference-page";

/** Where the static assets put swagger-ui-dist's files (see scripts/reference-assets.mjs). */
export const REFERENCE_ASSETS_PATH = "/reference";
const TRY_PATH = "/docs/try";

const PAGE = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Recall API reference</title>
  <link rel="stylesheet" href="${REFERENCE_ASSETS_PATH}/swagger-ui.css">
</head>
<body>
  <div id="reference"></div>
  <script src="${REFERENCE_ASSETS_PATH}/swagger-ui-bundle.js"></script>
  <script>
    window.ui = SwaggerUIBundle({ url: "/openapi.json", dom_id: "#reference", deepLinking: true, persistAuthorization: true, tryItOutEnabled: false });
  </script>
</body>
</html>
`;

const docs = {
  document: describe({
    tag: "Reference",
    public: true,
    summary: "This OpenAPI document",
    description: "The OpenAPI 3.1 document of the API, generated from the routes' own schemas.",
    responses: { 200: z.looseObject({ openapi: z.literal("3.1.0"), paths: z.record(z.string(), z.unknown()) }) },
  }),
  page: describe({
    tag: "Reference",
    public: true,
    summary: "API reference",
    description:
      "Every operation of /openapi.json with its auth, parameters, body and responses, rendered on the server: no script, works offline.",
    responses: { 200: { schema: z.string(), contentType: "text/html" } },
  }),
  tryPage: describe({
    tag: "Reference",
    public: true,
    summary: "Try requests (Swagger UI)",
    description:
      "Swagger UI over /openapi.json, to send requests from the browser; every asset is served by the Worker itself (works offline).",
    responses: { 200: { schema: z.string(), contentType: "text/html" } },
  }),
};

/** The reference page of each app, rendered once per isolate (the document does not change while it runs). */
const pages = new WeakMap<object, Promise<string>>();
const referenceHtml = (app: Hono<AppEnv>) => {
  let page = pages.get(app);
  if (!page) {
    page = openApiDocument(app).then(async (doc) => `<!doctype html>${await ReferencePage({ doc, tryPath: TRY_PATH })}`);
    pages.set(app, page);
  }
  return page;
};

/** The reference routes of `app` (the document describes the app they are mounted on). */
export function reference(app: Hono<AppEnv>) {
  return new Hono<AppEnv>()
    .get("/openapi.json", docs.document, async (c) => c.json(await openApiDocument(app)))
    .get("/docs", docs.page, async (c) => c.html(await referenceHtml(app)))
    .get(TRY_PATH, docs.tryPage, (c) => c.html(PAGE));
}
