import { SELF } from "cloudflare:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { describe, expect, it } from "vitest";
import { newTenant, send } from "../support/api";
import { apiClient, expectError, expectJson } from "../support/client";

/** The SDK's own client, speaking to the Worker's fetch handler. */
async function connect(key: string | null) {
  const transport = new StreamableHTTPClientTransport(new URL("https://recall.test/mcp"), {
    fetch: (url, init) => SELF.fetch(String(url), init),
    ...(key ? { requestInit: { headers: { authorization: `Bearer ${key}` } } } : {}),
  });
  const client = new Client({ name: "recall-test", version: "1" });
  await client.connect(transport);
  return client;
}

function textOf(result: Awaited<ReturnType<Client["callTool"]>>): string {
  return (result.content as { type: string; text: string }[])[0]!.text;
}

const TOOLS = [
  "remember",
  "search_memories",
  "similar_questions",
  "get_context",
  "explain_similarity",
  "analyze_query",
  "faq_search",
  "faq_get",
  "show_rank_candidates",
  "show_mark_used",
];

describe("POST /mcp", () => {
  it("lists every tool with the API's input schema", async () => {
    const { clientKey } = await newTenant();
    const client = await connect(clientKey);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([...TOOLS].sort());
    const remember = tools.find((t) => t.name === "remember")!;
    expect(remember.inputSchema).toMatchObject({
      type: "object",
      required: expect.arrayContaining(["scope", "content", "memoryType"]),
      properties: { memoryType: { enum: ["fact", "question", "decision", "insight"] }, content: { maxLength: 8000 } },
      additionalProperties: false,
    });
    // Defaults are not required of the caller.
    expect(remember.inputSchema.required).not.toContain("importance");
    const rank = tools.find((t) => t.name === "show_rank_candidates")!;
    expect(rank.inputSchema.required).toEqual(expect.arrayContaining(["showId", "candidates"]));
    for (const tool of tools) expect(tool.description!.length).toBeGreaterThan(40);
    await client.close();
  });

  it("remembers, then finds the memory by search, context and similar questions", async () => {
    const { clientKey } = await newTenant();
    const client = await connect(clientKey);
    const scope = "user:mcp";
    const stored = await client.callTool({
      name: "remember",
      arguments: { scope, content: "How do I deploy to Vercel?", memoryType: "question" },
    });
    expect(stored.isError).toBeFalsy();
    const memory = JSON.parse(textOf(stored));
    expect(memory).toMatchObject({ id: expect.stringMatching(/^mem_/), content: "How do I deploy to Vercel?" });

    const search = JSON.parse(textOf(await client.callTool({ name: "search_memories", arguments: { scope, query: "deploy Vercel" } })));
    expect(search.results[0].id).toBe(memory.id);

    const similar = JSON.parse(
      textOf(
        await client.callTool({
          name: "similar_questions",
          arguments: { scope, text: "What's the best way to deploy on Vercel?", record: false },
        }),
      ),
    );
    expect(similar.questions[0].id).toBe(memory.id);

    const context = textOf(
      await client.callTool({ name: "get_context", arguments: { scope, prompt: "What's the best way to deploy on Vercel?" } }),
    );
    expect(context).toContain("How do I deploy to Vercel?");
    expect(context).toContain("## Similar Questions You've Asked Before");

    const trivial = textOf(await client.callTool({ name: "get_context", arguments: { scope, prompt: "ok" } }));
    expect(trivial).toBe("Nothing relevant is remembered for this prompt.");
    await client.close();
  });

  it("analyzes a query", async () => {
    const { clientKey } = await newTenant();
    const client = await connect(clientKey);
    const analysis = JSON.parse(textOf(await client.callTool({ name: "analyze_query", arguments: { text: "Where do I live?" } })));
    expect(analysis).toMatchObject({ class: "searchable", isQuestion: true, questionType: "Where" });
    await client.close();
  });

  it("explains a same-question decision through explain_similarity, with the evidence", async () => {
    const { clientKey } = await newTenant();
    const client = await connect(clientKey);
    const explained = JSON.parse(
      textOf(
        await client.callTool({
          name: "explain_similarity",
          arguments: { a: "What does error E500 mean?", b: "What does error E501 mean?" },
        }),
      ),
    );
    expect(explained).toMatchObject({ decision: "related", reason: "differs: e500 ≠ e501", model: "use-lite-512" });
    await client.close();
  });

  it("searches the FAQ knowledge base and gets one FAQ", async () => {
    const { clientKey, adminKey } = await newTenant();
    const created = await expectJson(
      apiClient(adminKey).v1.faqs.$post({
        json: { question: "How do I reset my password?", answer: "Use the 'Forgot password' link on the sign-in page." },
      }),
      201,
    );
    const client = await connect(clientKey);
    const found = JSON.parse(textOf(await client.callTool({ name: "faq_search", arguments: { query: "reset password" } })));
    expect(found.results[0]).toMatchObject({ id: created.id, answer: expect.stringContaining("Forgot password") });
    const faq = JSON.parse(textOf(await client.callTool({ name: "faq_get", arguments: { id: created.id } })));
    expect(faq).toMatchObject({ id: created.id, answer: expect.stringContaining("Forgot password") });
    await client.close();
  });

  it("ranks show candidates and marks a pick used", async () => {
    const { clientKey } = await newTenant();
    const client = await connect(clientKey);
    const ranked = JSON.parse(
      textOf(
        await client.callTool({
          name: "show_rank_candidates",
          arguments: {
            showId: "mcp-show",
            candidates: [
              { text: "What inspired your latest album?", model: "a", confidence: 0.9 },
              { text: "How do you prepare for a live tour?", model: "b", confidence: 0.8 },
            ],
            topN: 1,
          },
        }),
      ),
    );
    expect(ranked.picks).toHaveLength(1);
    const used = await client.callTool({ name: "show_mark_used", arguments: { showId: "mcp-show", id: ranked.picks[0].id } });
    expect(used.isError).toBeFalsy();
    const history = await expectJson(
      apiClient(clientKey).v1.shows[":showId"].history.$get({ param: { showId: "mcp-show" }, query: {} }),
      200,
    );
    expect(history.questions.find((q) => q.id === ranked.picks[0].id)).toMatchObject({ wasUsed: true });
    await client.close();
  });

  it("returns a tool error with VALIDATION_FAILED for invalid arguments, not a transport failure", async () => {
    const { clientKey } = await newTenant();
    const client = await connect(clientKey);
    const bad = await client.callTool({ name: "remember", arguments: { scope: "s", content: "x", memoryType: "rumour" } });
    expect(bad.isError).toBe(true);
    const envelope = JSON.parse(textOf(bad));
    expect(envelope.error).toMatchObject({ code: "VALIDATION_FAILED", details: [expect.objectContaining({ path: "memoryType" })] });

    const badPath = await client.callTool({ name: "show_rank_candidates", arguments: { showId: "no spaces allowed", candidates: [] } });
    expect(badPath.isError).toBe(true);
    expect(JSON.parse(textOf(badPath)).error).toMatchObject({
      code: "VALIDATION_FAILED",
      details: [expect.objectContaining({ path: "showId" })],
    });

    // The client still works after a tool error.
    expect((await client.listTools()).tools.length).toBe(TOOLS.length);
    await client.close();
  });

  it("returns the API's NOT_FOUND as a tool error for another tenant's FAQ", async () => {
    const owner = await newTenant();
    const other = await newTenant();
    const created = await expectJson(
      apiClient(owner.adminKey).v1.faqs.$post({ json: { question: "Where is the invoice?", answer: "Billing page." } }),
      201,
    );
    const client = await connect(other.clientKey);
    const result = await client.callTool({ name: "faq_get", arguments: { id: created.id } });
    expect(result.isError).toBe(true);
    expect(JSON.parse(textOf(result)).error.code).toBe("NOT_FOUND");
    await client.close();
  });

  it("serves two concurrent clients, each getting its own answers", async () => {
    const a = await newTenant();
    const b = await newTenant();
    const [clientA, clientB] = await Promise.all([connect(a.clientKey), connect(b.clientKey)]);
    const rounds = await Promise.all(
      Array.from({ length: 6 }, (_, i) => {
        const [client, text] = i % 2 === 0 ? [clientA, `alpha question number ${i}?`] : [clientB, `beta question number ${i}?`];
        return client.callTool({ name: "analyze_query", arguments: { text } }, undefined, { timeout: 10_000 });
      }),
    );
    rounds.forEach((result, i) => {
      expect(JSON.parse(textOf(result)).expansion.keywords).toContain(i % 2 === 0 ? "alpha" : "beta");
    });
    await Promise.all([clientA.close(), clientB.close()]);
  });

  it("refuses a missing or wrong key with 401 before any MCP handling", async () => {
    await expect(connect(null)).rejects.toThrow();
    await expect(connect("rk_wrong")).rejects.toThrow();
    // JSON-RPC over /mcp is not part of the typed API (notInApiDocument): sent raw.
    const raw = send("/mcp", {
      key: "rk_wrong",
      body: { jsonrpc: "2.0", id: 1, method: "tools/list" },
      headers: { accept: "application/json, text/event-stream" },
    });
    await expectError(raw, 401, "UNAUTHORIZED");
    const get = await send("/mcp", { headers: { accept: "text/event-stream" } });
    expect(get.status).toBe(401);
  });

  it("answers GET and DELETE with 405 and Allow: POST", async () => {
    const { clientKey } = await newTenant();
    for (const method of ["GET", "DELETE"]) {
      const res = await send("/mcp", { key: clientKey, method, headers: { accept: "text/event-stream" } });
      expect(res.headers.get("allow")).toBe("POST");
      await expectError(res, 405, "METHOD_NOT_ALLOWED");
    }
  });

  it("answers a browser's CORS preflight without a key, and a POST from any origin carries the CORS headers", async () => {
    const preflight = await SELF.fetch("http://localhost/mcp", {
      method: "OPTIONS",
      headers: {
        origin: "https://inspector.example",
        "access-control-request-method": "POST",
        "access-control-request-headers": "authorization, content-type, mcp-protocol-version",
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-origin")).toBe("*");
    expect(preflight.headers.get("access-control-allow-methods")).toContain("POST");
    expect(preflight.headers.get("access-control-allow-headers")?.toLowerCase()).toContain("authorization");
    const { clientKey } = await newTenant();
    const res = await send("/mcp", {
      key: clientKey,
      body: { jsonrpc: "2.0", id: 1, method: "tools/list" },
      headers: { accept: "application/json, text/event-stream", origin: "https://inspector.example" },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
  });
});
