/**
 * GET /openapi.json (the OpenAPI 3.1 document of this app) and GET /docs (Swagger UI over it).
 * Both public. The page's script and stylesheet are swagger-ui-dist's own files, served as Workers
 * static assets under /reference/ (copied from node_modules by scripts/reference-assets.mjs), so
 * the page works offline: no CDN.
 */
import { Hono } from "hono";
import { z } from "zod";
import type { AppEnv } from "../context";
import { describe } from "../openapi/describe";
import { openApiDocument } from "../openapi/document";

/** Where the static assets put swagger-ui-dist's files (see scripts/reference-assets.mjs). */
export const REFERENCE_ASSETS_PATH = "/reference";

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
    summary: "Interactive API reference",
    description: "Swagger UI over /openapi.json; every asset is served by the Worker itself (works offline).",
    responses: { 200: { schema: z.string(), contentType: "text/html" } },
  }),
};

/** The reference routes of `app` (the document describes the app they are mounted on). */
export function reference(app: Hono<AppEnv>) {
  return new Hono<AppEnv>()
    .get("/openapi.json", docs.document, async (c) => c.json(await openApiDocument(app)))
    .get("/docs", docs.page, (c) => c.html(PAGE));
}
