/**
 * /mcp: the Model Context Protocol over streamable HTTP (SDK v1, its web-standard transport).
 * Stateless, so any isolate can answer any request: a fresh server and transport per request
 * (a shared pair mixes up concurrent clients' JSON-RPC ids, and SDK ≥ 1.26 refuses to reuse a
 * stateless transport), JSON replies instead of SSE streams. The key is checked first, for every
 * method (401 in the API's envelope). GET (the standalone event stream) and DELETE (session end)
 * have nothing to serve without sessions: 405 with `Allow: POST`, which the SDK client accepts.
 * A CORS preflight is answered without a key (mcpCors).
 */
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { Hono } from "hono";
import { cors } from "hono/cors";
import type { AppEnv } from "../context";
import { callApi, type Dispatch } from "../dispatch";
import { errorBody } from "../errors";
import { createMcpServer } from "./server";
import { authenticate } from "../middleware/authenticate";
import { jsonBodies } from "../middleware/json-bodies";
import { notInApiDocument } from "../openapi/describe";

/** JSON-RPC 2.0 over one URL: its methods (tools/list, tools/call…) are the MCP specification's, not REST operations. */
const mcpProtocol = notInApiDocument(
  "The Model Context Protocol endpoint (streamable HTTP, JSON-RPC 2.0; see modelcontextprotocol.io): its tools call the documented /v1 routes, so it is left out of the JSON API document.",
);

/**
 * Browser MCP clients send a CORS preflight (OPTIONS, no credentials) before their first POST: it
 * is answered before the key is checked, as the transport documents. Any origin: the key travels
 * in Authorization, never in a cookie, so a page cannot act with a user's ambient credentials.
 */
const mcpCors = cors({
  origin: "*",
  allowMethods: ["POST", "GET", "DELETE", "OPTIONS"],
  allowHeaders: ["authorization", "content-type", "accept", "mcp-protocol-version", "mcp-session-id", "last-event-id"],
  exposeHeaders: ["mcp-session-id", "mcp-protocol-version", "x-request-id"],
  maxAge: 86_400,
});

export function mcp(dispatch: Dispatch) {
  return new Hono<AppEnv>()
    .use(mcpCors)
    .use(jsonBodies())
    .use(authenticate())
    .on(["GET", "DELETE"], "/", mcpProtocol, (c) =>
      c.json(errorBody("METHOD_NOT_ALLOWED", "This MCP server is stateless: send JSON-RPC with POST", c.get("requestId")), 405, {
        allow: "POST",
      }),
    )
    .post("/", mcpProtocol, async (c) => {
      const server = createMcpServer((method, path, body) => callApi(c, dispatch, method, path, body), c.get("requestId"));
      const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
      await server.connect(transport);
      // jsonBodies has read the body (UTF-8 check); the transport gets a request carrying those bytes.
      const request = new Request(c.req.url, { method: "POST", headers: c.req.raw.headers, body: await c.req.arrayBuffer() });
      return transport.handleRequest(request);
    });
}
