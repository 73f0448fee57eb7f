import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { describe, expect, inject, it } from "vitest";

/** The SDK's client over real HTTP to the Worker, as an MCP host (Claude Code, an IDE) connects. */
async function connect(key: string) {
  const client = new Client({ name: "recall-node-test", version: "1" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${inject("recallUrl")}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${key}` } },
    }),
  );
  return client;
}

const text = (result: Awaited<ReturnType<Client["callTool"]>>) => (result.content as { text: string }[])[0]!.text;

describe("/mcp over HTTP", () => {
  it("connects, lists the tools and calls one", async () => {
    const client = await connect(inject("recallKey"));
    const { tools } = await client.listTools();
    expect(tools).toHaveLength(10);
    const stored = await client.callTool({
      name: "remember",
      arguments: { scope: "node:mcp", content: "The staging database lives in eu-west-1", memoryType: "fact" },
    });
    expect(stored.isError).toBeFalsy();
    const found = JSON.parse(
      text(await client.callTool({ name: "search_memories", arguments: { scope: "node:mcp", query: "where is the staging database" } })),
    );
    expect(found.results[0].content).toBe("The staging database lives in eu-west-1");
    await client.close();
  });

  it("keeps two concurrent clients' calls apart", async () => {
    const [a, b] = await Promise.all([connect(inject("recallKey")), connect(inject("recallKey"))]);
    const calls = Array.from({ length: 8 }, (_, i) =>
      (i % 2 === 0 ? a : b).callTool({ name: "analyze_query", arguments: { text: `where is tower${i} located?` } }),
    );
    const results = await Promise.all(calls);
    results.forEach((result, i) => expect(JSON.parse(text(result)).expansion.keywords).toContain(`tower${i}`));
    await Promise.all([a.close(), b.close()]);
  });

  it("refuses a wrong key before any MCP handling", async () => {
    await expect(connect("rk_wrong")).rejects.toThrow(/401|Unauthorized/i);
    const response = await fetch(`${inject("recallUrl")}/mcp`, {
      method: "POST",
      headers: { authorization: "Bearer rk_wrong", "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: {} }),
    });
    expect(response.status).toBe(401);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe("UNAUTHORIZED");
  });

  it("answers GET with 405 and Allow: POST at once (no event stream held open)", async () => {
    const response = await fetch(`${inject("recallUrl")}/mcp`, {
      headers: { authorization: `Bearer ${inject("recallKey")}`, accept: "text/event-stream" },
      signal: AbortSignal.timeout(5000),
    });
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toBe("POST");
  });
});
