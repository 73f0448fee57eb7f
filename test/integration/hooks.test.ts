import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { SIMILAR_QUESTIONS_HEADING } from "../../src/features/context/markdown";
import { scopeForProject } from "../../src/features/hooks/claude-code";
import { newTenant, send } from "../support/api";
import { clientWith, countingEmbedder } from "../support/app";
import { apiClient, expectJson, type TestClient } from "../support/client";

const HOOK = "/v1/hooks/claude-code";
const hook = (api: TestClient, json: Record<string, unknown> & { hook_event_name: string }, query: { scope?: string } = {}) =>
  api.v1.hooks["claude-code"].$post({ query, json });

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

const remember = (api: TestClient, json: { scope: string; content: string; memoryType: "question"; sessionId?: string }) =>
  expectJson(api.v1.memories.$post({ json }), 201);

/** Waits until the scope holds `count` memories of a type (writes after the response land a little later). */
async function waitForMemories(api: TestClient, scope: string, query: string, predicate: (results: unknown[]) => boolean) {
  for (let i = 0; i < 50; i++) {
    const { results } = await expectJson(api.v1.memories.search.$post({ json: { scope, query, memoryTypes: ["question"] } }), 200);
    if (predicate(results)) return results;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error("the memories never appeared");
}

describe("POST /v1/hooks/claude-code (UserPromptSubmit)", () => {
  it("returns the similar-questions block as additionalContext for the project's scope", async () => {
    const api = apiClient((await newTenant()).clientKey);
    const scope = scopeForProject("/Users/me/code/shop");
    await remember(api, { scope, content: "How do I deploy to Vercel?", memoryType: "question", sessionId: "older" });

    const res = await expectJson(hook(api, promptInput("What's the best way to deploy on Vercel?")), 200);
    expect(res).toEqual({
      hookSpecificOutput: { hookEventName: "UserPromptSubmit", additionalContext: expect.stringContaining(SIMILAR_QUESTIONS_HEADING) },
    });
    expect(res).toMatchObject({ hookSpecificOutput: { additionalContext: expect.stringContaining("How do I deploy to Vercel?") } });
  });

  it("records the question for later prompts, with the session id", async () => {
    const api = apiClient((await newTenant()).clientKey);
    const scope = "team:hooks-record";
    await expectJson(hook(api, promptInput("How do I rotate the staging database password?"), { scope }), 200);
    const found = await waitForMemories(api, scope, "rotate staging database password", (r) => r.length > 0);
    expect(found[0]).toMatchObject({ content: "How do I rotate the staging database password?", memoryType: "question" });
    const stored = await expectJson(api.v1.memories[":id"].$get({ param: { id: found[0]!.id } }), 200);
    expect(stored).toMatchObject({ sessionId: "abc123", scope });
  });

  it("answers {} for a trivial prompt without embedding or recording anything", async () => {
    const { clientKey } = await newTenant();
    const { calls, override } = countingEmbedder();
    const counted = clientWith(override, clientKey);
    for (const prompt of ["ok", "/help", "thanks", "sounds good"]) {
      expect(await expectJson(hook(counted, promptInput(prompt)), 200)).toEqual({});
    }
    expect(calls).toEqual([]);
    const stored = await env.DB.prepare(
      "SELECT COUNT(*) AS n FROM memories m JOIN api_keys k ON k.tenant_id = m.tenant_id WHERE k.key_prefix = ?",
    )
      .bind(clientKey.slice(0, 10))
      .first<{ n: number }>();
    expect(stored?.n).toBe(0);
  });

  it("answers {} when nothing is remembered, and does not record a statement", async () => {
    const api = apiClient((await newTenant()).clientKey);
    const scope = "team:hooks-statement";
    expect(await expectJson(hook(api, promptInput("Refactor the checkout module to use the new payment client"), { scope }), 200)).toEqual(
      {},
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    const search = await expectJson(api.v1.memories.search.$post({ json: { scope, query: "checkout payment client" } }), 200);
    expect(search.results).toEqual([]);
  });

  it("accepts fields it does not know (Claude Code adds them over time)", async () => {
    const api = apiClient((await newTenant()).clientKey);
    const res = await hook(api, promptInput("ok", { prompt_id: "p1", effort: { level: "high" }, session_title: "x" }));
    expect(res.headers.get("x-recall-error")).toBeNull();
    expect(await expectJson(res, 200)).toEqual({});
  });
});

describe("POST /v1/hooks/claude-code (PostToolUse)", () => {
  it("adds an edited file to the session, which then enriches the session's context", async () => {
    const api = apiClient((await newTenant()).clientKey);
    const sessionId = "sess-files-1";
    const res = hook(api, {
      session_id: sessionId,
      transcript_path: "/tmp/t.jsonl",
      cwd: "/Users/me/code/shop",
      permission_mode: "default",
      hook_event_name: "PostToolUse",
      tool_name: "Edit",
      tool_input: { file_path: "/Users/me/code/shop/src/checkout.ts", old_string: "a", new_string: "b" },
      tool_response: { filePath: "/Users/me/code/shop/src/checkout.ts", success: true },
      tool_use_id: "toolu_01",
    });
    expect(await expectJson(res, 200)).toEqual({});
    const context = await expectJson(
      api.v1.context.$post({ json: { scope: "any", prompt: "why was this changed recently?", sessionId } }),
      200,
    );
    expect(context.enrichedQuery).toContain("checkout.ts");
  });

  it("ignores tools that touch no file", async () => {
    const api = apiClient((await newTenant()).clientKey);
    const res = hook(api, {
      session_id: "s-bash",
      cwd: "/x",
      hook_event_name: "PostToolUse",
      tool_name: "Bash",
      tool_input: { command: "ls" },
    });
    expect(await expectJson(res, 200)).toEqual({});
    const files = await env.DB.prepare("SELECT COUNT(*) AS n FROM session_files WHERE session_id = ?")
      .bind("s-bash")
      .first<{ n: number }>();
    expect(files?.n).toBe(0);
  });
});

// Wrong keys, bodies that are not the hook's JSON and bad scopes: sent raw (send), as a broken client would.
describe("POST /v1/hooks/claude-code (never blocks)", () => {
  it("answers 200 {} naming UNAUTHORIZED for a wrong or missing key, before reading the body", async () => {
    for (const [key, body] of [
      ["rk_wrong", promptInput("How do I deploy to Vercel?")],
      [null, promptInput("ok")],
      ["rk_wrong", { not: "a hook" }],
    ] as const) {
      const res = await send(HOOK, { key, body });
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({});
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
      const res = await send(HOOK, { key: clientKey, ...request });
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({});
      expect(res.headers.get("x-recall-error")).toBe(code);
    }
  });

  it("answers 200 {} when the context cannot be built (scope invalid)", async () => {
    const { clientKey } = await newTenant();
    const res = await send(`${HOOK}?scope=%01bad`, { key: clientKey, body: promptInput("How do I deploy to Vercel?") });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({});
    expect(res.headers.get("x-recall-error")).toBe("VALIDATION_FAILED");
  });
});
