import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { type Doc, METHODS, operations } from "../../fuzz/schema";
import { uniqueSymbol } from "hono-openapi";
import { findTargetHandler } from "hono/utils/handler";
import { Hono } from "hono";
import type { RouterRoute } from "hono/types";
import { createApp } from "../../src/app/app";
import { describe as describeRoute, notInApiDocument } from "../../src/http/openapi/describe";
import { buildOpenApiDocument } from "../../src/http/docs/document";

async function document(): Promise<Doc> {
  const response = await SELF.fetch("https://recall.test/openapi.json");
  expect(response.status).toBe(200);
  return (await response.json()) as Doc;
}

/** "METHOD /openapi/path" of every route the app serves, but those marked notInApiDocument(reason). */
function servedRoutes(app: { routes: RouterRoute[] }): Set<string> {
  const routes = app.routes.filter((r) => (METHODS as readonly string[]).includes(r.method.toLowerCase()));
  const key = (r: RouterRoute) => `${r.method.toUpperCase()} ${openApiPath(r.path)}`;
  const hidden = new Set(
    routes
      .filter(
        (r) => (findTargetHandler(r.handler) as { [uniqueSymbol]?: { spec?: { hide?: boolean } } })[uniqueSymbol]?.spec?.hide === true,
      )
      .map(key),
  );
  return new Set(routes.map(key).filter((r) => !hidden.has(r)));
}

/** Hono path → OpenAPI path: `/:id` → `/{id}`, `/:action{accept|dismiss}` → `/{action}`. */
const openApiPath = (path: string) => path.replace(/:([A-Za-z0-9_]+)(?:\{[^}]*\})?/g, "{$1}");

describe("GET /openapi.json", () => {
  it("is a public OpenAPI 3.1 document with the bearer scheme, the webhook signature and a tag per resource", async () => {
    const doc = (await document()) as Doc & {
      openapi: string;
      tags: { name: string }[];
      components: { securitySchemes: Record<string, unknown> };
    };
    expect(doc.openapi).toBe("3.1.0");
    expect(doc.security).toEqual([{ bearer: [] }]);
    expect(doc.components.securitySchemes).toMatchObject({
      bearer: { type: "http", scheme: "bearer" },
      webhookSignature: { type: "apiKey", in: "header", name: "X-Recall-Signature" },
    });
    const webhook = doc.paths["/v1/webhooks/tickets"]!.post!;
    expect(webhook.security).toEqual([{ webhookSignature: [] }]);
    expect(webhook.parameters).toEqual(
      expect.arrayContaining(
        ["X-Recall-Tenant", "X-Recall-Timestamp", "X-Recall-Signature"].map((name) =>
          expect.objectContaining({ in: "header", name, required: true }),
        ),
      ),
    );
    const used = new Set(operations(doc).flatMap(({ op }) => op.tags ?? []));
    expect([...used].sort()).toEqual(doc.tags.map((t) => t.name).sort());
  });

  it("documents every route the app serves, and serves every route it documents", async () => {
    const doc = await document();
    const served = servedRoutes(createApp());
    const documented = new Set(operations(doc).map(({ method, path }) => `${method.toUpperCase()} ${path}`));
    expect(
      [...served].filter((r) => !documented.has(r)),
      "served but not documented",
    ).toEqual([]);
    expect(
      [...documented].filter((r) => !served.has(r)),
      "documented but not served",
    ).toEqual([]);
    expect(documented.size).toBeGreaterThanOrEqual(59);
  });

  it("leaves out only routes marked notInApiDocument, and still catches an undescribed one", async () => {
    const app = new Hono()
      .get("/page", notInApiDocument("an HTML page"), (c) => c.html("<p>hi</p>"))
      .get("/described", describeRoute({ tag: "Health", summary: "s", description: "d", responses: { 200: null } }), (c) => c.body(null))
      .get("/forgotten", (c) => c.text("x"));
    const doc = (await buildOpenApiDocument(app)) as unknown as Doc;
    expect(Object.keys(doc.paths)).toEqual(["/described"]);
    expect([...servedRoutes(app)].sort()).toEqual(["GET /described", "GET /forgotten"]);
  });

  it("gives every operation a tag, a summary, a description, its error envelope and a unique id", async () => {
    const doc = await document();
    const ids = new Set<string>();
    for (const { method, path, op } of operations(doc)) {
      const where = `${method.toUpperCase()} ${path}`;
      expect(op.tags, where).toHaveLength(1);
      expect(op.summary, where).toBeTruthy();
      expect(op.description, where).toBeTruthy();
      expect(ids.has(op.operationId), where).toBe(false);
      ids.add(op.operationId);
      expect(op.responses["500"]?.content?.["application/json"]?.schema, where).toMatchObject({ required: ["error"] });
      const bearer = op.security === undefined;
      if (bearer) expect(op.responses["401"], where).toBeDefined();
      if (bearer && ["post", "put", "patch"].includes(method)) expect(op.responses["415"], where).toBeDefined();
      if (path.includes("{")) expect(op.responses["400"], where).toBeDefined();
    }
  });

  it("carries the seeds' examples: the context block, a show ranking and a ticket", async () => {
    const doc = await document();
    const example = (path: string) => JSON.stringify(doc.paths[path]!.post!);
    expect(example("/v1/context")).toContain("## Similar Questions You've Asked Before");
    expect(example("/v1/shows/{showId}/rank")).toContain("What evidence supports machine consciousness?");
    expect(example("/v1/webhooks/tickets")).toContain("ZD-4711");
  });
});

describe("GET /docs", () => {
  it("is the whole reference rendered on the server: every operation with its parameters, body and responses, no script", async () => {
    const response = await SELF.fetch("https://recall.test/docs");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("text/html");
    const html = await response.text();
    const doc = await document();
    for (const { path, method, op } of operations(doc)) {
      expect(html, `${method} ${path}`).toContain(`id="${op.operationId}"`);
      expect(html).toContain(`href="#${op.operationId}"`);
    }
    // FAQ search: a body field with its bounds and description, a shared error answer linked, not repeated.
    const search = html.slice(html.indexOf('id="postV1FaqsSearch"'), html.indexOf("</section>", html.indexOf('id="postV1FaqsSearch"')));
    expect(search).toContain('<code>query</code> <span class="type">string, 1..2000 characters</span>');
    expect(search).toContain('<a href="#response-E429">the error envelope (429)</a>');
    expect(search).toContain("How much of the query this result matches, 0..1");
    expect(html).toContain('id="response-E429"');
    expect(html).toContain('id="schema-Faq"');
    // A link to a shared schema lands on it.
    for (const [, name] of html.matchAll(/href="#schema-([^"]+)"/g)) expect(html).toContain(`id="schema-${name}"`);
    expect(html).not.toContain("<script");
    expect(html).not.toMatch(/https?:\/\//);
  });
});

describe("GET /docs/try", () => {
  it("serves Swagger UI with its assets from this Worker, no CDN", async () => {
    const response = await SELF.fetch("https://recall.test/docs/try");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("text/html");
    const html = await response.text();
    expect(html).toContain('src="/reference/swagger-ui-bundle.js"');
    expect(html).toContain('href="/reference/swagger-ui.css"');
    expect(html).toContain('url: "/openapi.json"');
    expect(html).not.toMatch(/https?:\/\//);
  });
});
