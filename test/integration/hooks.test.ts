import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { SIMILAR_QUESTIONS_HEADING } from "../../src/context/markdown";
import { scopeForProject } from "../../src/hooks/claude-code";
import { call, newTenant } from "../support/api";
import { callWith, countingEmbedder } from "../support/app";

const HOOK = "/v1/hooks/claude-code";

/** Claude Code's UserPromptSubmit input (hooks reference). */
function promptInput(prompt: string, extra: Record<string, unknown> = {}) {
  return {
    session_id: "abc123",
    transcript_path: "/Users/me/.claude/projects/x/abc123.jsonl",
    cwd: "/Users/me/code/shop",
    permission_mode: "default",
    hook_event_name: "UserPromptSubmit",
    prompt,
    ...extra,
  };
}

async function remember(key: string, body: Record<string, unknown>) {
  const res = await call("/v1/memories", { key, body });
  expect(res.status).toBe(201);
  return res.json!;
}

/** Waits until the scope holds `count` memories of a type (writes after the response land a little later). */
async function waitForMemories(key: string, scope: string, query: string, predicate: (results: any[]) => boolean) {
  for (let i = 0; i < 50; i++) {
    const res = await call("/v1/memories/search", { key, body: { scope, query, memoryTypes: ["question"] } });
    if (predicate(res.json!.results)) return res.json!.results;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error("the memories never appeared");
}

describe("POST /v1/hooks/claude-code (UserPromptSubmit)", () => {
  it("returns the similar-questions block as additionalContext for the project's scope", async () => {
    const { clientKey } = await newTenant();
    const scope = scopeForProject("/Users/me/code/shop");
    await remember(clientKey, { scope, content: "How do I deploy to Vercel?", memoryType: "question", sessionId: "older" });

    const res = await call(HOOK, { key: clientKey, body: promptInput("What's the best way to deploy on Vercel?") });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ hookSpecificOutput: { hookEventName: "UserPromptSubmit", additionalContext: expect.stringContaining(SIMILAR_QUESTIONS_HEADING) } });
    expect(res.json!.hookSpecificOutput.additionalContext).toContain("How do I deploy to Vercel?");
  });

  it("records the question for later prompts, with the session id", async () => {
    const { clientKey } = await newTenant();
    const scope = "team:hooks-record";
    const res = await call(`${HOOK}?scope=${encodeURIComponent(scope)}`, { key: clientKey, body: promptInput("How do I rotate the staging database password?") });
    expect(res.status).toBe(200);
    const found = await waitForMemories(clientKey, scope, "rotate staging database password", (r) => r.length > 0);
    expect(found[0]).toMatchObject({ content: "How do I rotate the staging database password?", memoryType: "question" });
    const stored = await call(`/v1/memories/${found[0].id}`, { key: clientKey });
    expect(stored.json).toMatchObject({ sessionId: "abc123", scope });
  });

  it("answers {} for a trivial prompt without embedding or recording anything", async () => {
    const { clientKey } = await newTenant();
    const { calls, override } = countingEmbedder();
    for (const prompt of ["ok", "/help", "thanks", "sounds good"]) {
      const res = await callWith(override, HOOK, clientKey, promptInput(prompt));
      expect(res).toEqual({ status: 200, json: {} });
    }
    expect(calls).toEqual([]);
    const stored = await env.DB.prepare("SELECT COUNT(*) AS n FROM memories m JOIN api_keys k ON k.tenant_id = m.tenant_id WHERE k.key_prefix = ?")
      .bind(clientKey.slice(0, 10))
      .first<{ n: number }>();
    expect(stored?.n).toBe(0);
  });

  it("answers {} when nothing is remembered, and does not record a statement", async () => {
    const { clientKey } = await newTenant();
    const scope = "team:hooks-statement";
    const res = await call(`${HOOK}?scope=${scope}`, { key: clientKey, body: promptInput("Refactor the checkout module to use the new payment client") });
    expect(res).toMatchObject({ status: 200, json: {} });
    await new Promise((resolve) => setTimeout(resolve, 300));
    const search = await call("/v1/memories/search", { key: clientKey, body: { scope, query: "checkout payment client" } });
    expect(search.json!.results).toEqual([]);
  });

  it("accepts fields it does not know (Claude Code adds them over time)", async () => {
    const { clientKey } = await newTenant();
    const res = await call(HOOK, { key: clientKey, body: promptInput("ok", { prompt_id: "p1", effort: { level: "high" }, session_title: "x" }) });
    expect(res).toMatchObject({ status: 200, json: {} });
    expect(res.headers.get("x-recall-error")).toBeNull();
  });
});

describe("POST /v1/hooks/claude-code (PostToolUse)", () => {
  it("adds an edited file to the session, which then enriches the session's context", async () => {
    const { clientKey } = await newTenant();
    const sessionId = "sess-files-1";
    const res = await call(HOOK, {
      key: clientKey,
      body: {
        session_id: sessionId,
        transcript_path: "/tmp/t.jsonl",
        cwd: "/Users/me/code/shop",
        permission_mode: "default",
        hook_event_name: "PostToolUse",
        tool_name: "Edit",
        tool_input: { file_path: "/Users/me/code/shop/src/checkout.ts", old_string: "a", new_string: "b" },
        tool_response: { filePath: "/Users/me/code/shop/src/checkout.ts", success: true },
        tool_use_id: "toolu_01",
      },
    });
    expect(res).toMatchObject({ status: 200, json: {} });
    const context = await call("/v1/context", { key: clientKey, body: { scope: "any", prompt: "why was this changed recently?", sessionId } });
    expect(context.json!.enrichedQuery).toContain("checkout.ts");
  });

  it("ignores tools that touch no file", async () => {
    const { clientKey } = await newTenant();
    const res = await call(HOOK, {
      key: clientKey,
      body: { session_id: "s-bash", cwd: "/x", hook_event_name: "PostToolUse", tool_name: "Bash", tool_input: { command: "ls" } },
    });
    expect(res).toMatchObject({ status: 200, json: {} });
    const files = await env.DB.prepare("SELECT COUNT(*) AS n FROM session_files WHERE session_id = ?").bind("s-bash").first<{ n: number }>();
    expect(files?.n).toBe(0);
  });
});

describe("POST /v1/hooks/claude-code (never blocks)", () => {
  it("answers 200 {} naming UNAUTHORIZED for a wrong or missing key, before reading the body", async () => {
    for (const [key, body] of [
      ["rk_wrong", promptInput("How do I deploy to Vercel?")],
      [null, promptInput("ok")],
      ["rk_wrong", { not: "a hook" }],
    ] as const) {
      const res = await call(HOOK, { key, body });
      expect(res.status).toBe(200);
      expect(res.json).toEqual({});
      expect(res.headers.get("x-recall-error")).toBe("UNAUTHORIZED");
    }
  });

  it("answers 200 {} naming the error for a body that is not the hook's JSON", async () => {
    const { clientKey } = await newTenant();
    const cases = [
      { raw: "{not json", code: "INVALID_JSON" },
      { raw: JSON.stringify({ prompt: "no event name" }), code: "VALIDATION_FAILED" },
      { raw: "hello", headers: { "content-type": "text/plain" }, code: "UNSUPPORTED_MEDIA_TYPE" },
    ];
    for (const { code, ...request } of cases) {
      const res = await call(HOOK, { key: clientKey, ...request });
      expect(res.status).toBe(200);
      expect(res.json).toEqual({});
      expect(res.headers.get("x-recall-error")).toBe(code);
    }
  });

  it("answers 200 {} when the context cannot be built (scope invalid)", async () => {
    const { clientKey } = await newTenant();
    const res = await call(`${HOOK}?scope=%01bad`, { key: clientKey, body: promptInput("How do I deploy to Vercel?") });
    expect(res).toMatchObject({ status: 200, json: {} });
    expect(res.headers.get("x-recall-error")).toBe("VALIDATION_FAILED");
  });
});
