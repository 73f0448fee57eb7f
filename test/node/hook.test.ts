import { describe, expect, it } from "vitest";
import { scopeForProject } from "../../src/features/hooks/claude-code";
import { api, deadUrl, fakeServer, promptPayload, runRecall, stackEnv } from "./support/recall";

/** The hook's budget in these runs; every failure must end well within it (plus Node's start). */
const BUDGET_MS = 1500;
const WITHIN_BUDGET_MS = BUDGET_MS + 1000;

async function waitFor<T>(probe: () => Promise<T | undefined>): Promise<T> {
  for (let i = 0; i < 50; i++) {
    const found = await probe();
    if (found !== undefined) return found;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error("never happened");
}

describe("recall hook user-prompt-submit", () => {
  it("prints the similar-questions block for a real question", async () => {
    const cwd = "/Users/me/code/hook-happy";
    const scope = scopeForProject(cwd);
    const seeded = await api("/v1/memories", {
      scope,
      content: "How do I deploy to Vercel?",
      memoryType: "question",
      sessionId: "yesterday",
    });
    expect(seeded.status).toBe(201);

    const run = await runRecall(["hook", "user-prompt-submit"], {
      stdin: promptPayload("What's the best way to deploy on Vercel?", { cwd, sessionId: "today" }),
      env: stackEnv(),
    });
    expect(run).toMatchObject({ code: 0, stderr: "" });
    const output = JSON.parse(run.stdout);
    expect(output.hookSpecificOutput.hookEventName).toBe("UserPromptSubmit");
    expect(output.hookSpecificOutput.additionalContext).toContain("## Similar Questions You've Asked Before");
    expect(output.hookSpecificOutput.additionalContext).toContain("How do I deploy to Vercel?");
  });

  it("records the question (after answering) for the next sessions", async () => {
    const cwd = "/Users/me/code/hook-record";
    const run = await runRecall(["hook", "user-prompt-submit"], {
      stdin: promptPayload("How do I rotate the staging database password?", { cwd, sessionId: "s-rec" }),
      env: stackEnv(),
    });
    expect(run).toMatchObject({ code: 0, stdout: "", stderr: "" });
    const recorded = await waitFor(async () => {
      const search = await api("/v1/memories/search", {
        scope: scopeForProject(cwd),
        query: "rotate staging database password",
        memoryTypes: ["question"],
      });
      return search.json.results[0];
    });
    expect(recorded).toMatchObject({ content: "How do I rotate the staging database password?", memoryType: "question" });
    expect((await api(`/v1/memories/${recorded.id}`)).json.sessionId).toBe("s-rec");
  });

  it("uses RECALL_SCOPE over the project directory", async () => {
    const scope = "team:hook-fixed-scope";
    await api("/v1/memories", { scope, content: "How should we name feature flags?", memoryType: "question", sessionId: "old" });
    const run = await runRecall(["hook", "user-prompt-submit"], {
      stdin: promptPayload("What naming convention do feature flags use?"),
      env: stackEnv({ RECALL_SCOPE: scope }),
    });
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout).hookSpecificOutput.additionalContext).toContain("How should we name feature flags?");
  });

  it("prints nothing for a question nothing is remembered about", async () => {
    const run = await runRecall(["hook", "user-prompt-submit"], {
      stdin: promptPayload("Why does the tokenizer drop emoji?", { cwd: "/Users/me/code/empty-project" }),
      env: stackEnv(),
    });
    expect(run).toMatchObject({ code: 0, stdout: "", stderr: "" });
  });

  it("makes no request at all for trivial prompts", async () => {
    const server = await fakeServer();
    try {
      for (const prompt of ["ok", "/help", "thanks", "sounds good", "LGTM!", "   "]) {
        const run = await runRecall(["hook", "user-prompt-submit"], {
          stdin: promptPayload(prompt),
          env: { RECALL_URL: server.url, RECALL_API_KEY: "rk_any" },
        });
        expect(run).toMatchObject({ code: 0, stdout: "", stderr: "" });
      }
      expect(server.requests).toEqual([]);
      // The same server does get a real question: the count above is not empty by accident.
      await runRecall(["hook", "user-prompt-submit"], {
        stdin: promptPayload("How do I rotate the API keys safely?"),
        env: { RECALL_URL: server.url, RECALL_API_KEY: "rk_any" },
      });
      expect(server.requests).toEqual([expect.stringMatching(/^POST \/v1\/hooks\/claude-code\?scope=project%3Ashop-/)]);
    } finally {
      await server.close();
    }
  });
});

describe("recall hook scope", () => {
  it("is one per project: CLAUDE_PROJECT_DIR, else the hook's cwd", async () => {
    const server = await fakeServer(() => ({ body: "{}" }));
    try {
      const env = { RECALL_URL: server.url, RECALL_API_KEY: "rk_any" };
      const prompt = "How do I rotate the API keys safely?";
      await runRecall(["hook", "user-prompt-submit"], { stdin: promptPayload(prompt, { cwd: "/work/alpha" }), env });
      await runRecall(["hook", "user-prompt-submit"], {
        stdin: promptPayload(prompt, { cwd: "/work/alpha/src" }),
        env: { ...env, CLAUDE_PROJECT_DIR: "/work/beta" },
      });
      expect(server.requests).toEqual([
        `POST /v1/hooks/claude-code?scope=${encodeURIComponent(scopeForProject("/work/alpha"))}`,
        `POST /v1/hooks/claude-code?scope=${encodeURIComponent(scopeForProject("/work/beta"))}`,
      ]);
    } finally {
      await server.close();
    }
  });
});

describe("recall hook user-prompt-submit never breaks the prompt", () => {
  const question = promptPayload("How do I deploy to Vercel?");

  it("exits 0 with empty stdout and one stderr line when the service is stopped", async () => {
    const run = await runRecall(["hook", "user-prompt-submit"], {
      stdin: question,
      env: { RECALL_URL: await deadUrl(), RECALL_API_KEY: "rk_any" },
    });
    expect(run).toMatchObject({ code: 0, stdout: "" });
    expect(run.stderr).toMatch(/^recall: cannot reach http:\/\/127\.0\.0\.1:\d+ \(ECONNREFUSED\)\n$/);
    expect(run.ms).toBeLessThan(WITHIN_BUDGET_MS);
  });

  it("exits 0 with empty stdout and one stderr line for a wrong key, which it never prints", async () => {
    const run = await runRecall(["hook", "user-prompt-submit"], {
      stdin: question,
      env: stackEnv({ RECALL_API_KEY: "rk_wrong_secret_value" }),
    });
    expect(run).toMatchObject({ code: 0, stdout: "" });
    expect(run.stderr).toMatch(/^recall: .* answered UNAUTHORIZED \(check RECALL_API_KEY\)\n$/);
    expect(run.stderr).not.toContain("rk_wrong_secret_value");
  });

  it("gives up within the budget on a server that takes 5 s", async () => {
    const server = await fakeServer(() => ({
      delayMs: 5000,
      body: JSON.stringify({ hookSpecificOutput: { hookEventName: "UserPromptSubmit", additionalContext: "late" } }),
    }));
    try {
      const run = await runRecall(["hook", "user-prompt-submit"], {
        stdin: question,
        env: { RECALL_URL: server.url, RECALL_API_KEY: "rk_any" },
      });
      expect(run).toMatchObject({ code: 0, stdout: "", stderr: `recall: gave up after ${BUDGET_MS} ms (RECALL_HOOK_BUDGET_MS)\n` });
      expect(run.ms).toBeGreaterThanOrEqual(BUDGET_MS);
      expect(run.ms).toBeLessThan(WITHIN_BUDGET_MS);
      expect(server.requests).toHaveLength(1);
    } finally {
      await server.close();
    }
  });

  it("honours a shorter RECALL_HOOK_BUDGET_MS", async () => {
    const server = await fakeServer(() => ({ delayMs: 5000 }));
    try {
      const run = await runRecall(["hook", "user-prompt-submit"], {
        stdin: question,
        env: { RECALL_URL: server.url, RECALL_API_KEY: "rk_any", RECALL_HOOK_BUDGET_MS: "300" },
      });
      expect(run).toMatchObject({ code: 0, stdout: "", stderr: "recall: gave up after 300 ms (RECALL_HOOK_BUDGET_MS)\n" });
      expect(run.ms).toBeLessThan(300 + 1000);
    } finally {
      await server.close();
    }
  });

  it("exits 0 with empty stdout for garbage stdin, empty stdin and a JSON array", async () => {
    for (const stdin of ["garbage{", "", "[1,2]"]) {
      const run = await runRecall(["hook", "user-prompt-submit"], { stdin, env: stackEnv() });
      expect(run).toMatchObject({ code: 0, stdout: "" });
      expect(run.stderr).toMatch(/^recall: stdin is not (the hook's JSON|a JSON object)\n$/);
      expect(run.ms).toBeLessThan(WITHIN_BUDGET_MS);
    }
  });

  it("exits 0 with empty stdout when no API key is configured", async () => {
    const run = await runRecall(["hook", "user-prompt-submit"], { stdin: question, env: { RECALL_URL: stackEnv().RECALL_URL! } });
    expect(run).toMatchObject({ code: 0, stdout: "", stderr: "recall: no API key: set RECALL_API_KEY or run `recall configure`\n" });
  });

  it("exits 0 with empty stdout when the server answers 500 or non-JSON", async () => {
    for (const [reply, message] of [
      [{ status: 500, body: "boom" }, /^recall: .* answered HTTP 500\n$/],
      [{ status: 200, body: "<html>proxy</html>" }, /^recall: .* answered something that is not JSON\n$/],
    ] as const) {
      const server = await fakeServer(() => reply);
      try {
        const run = await runRecall(["hook", "user-prompt-submit"], {
          stdin: question,
          env: { RECALL_URL: server.url, RECALL_API_KEY: "rk_any" },
        });
        expect(run).toMatchObject({ code: 0, stdout: "" });
        expect(run.stderr).toMatch(message);
      } finally {
        await server.close();
      }
    }
  });
});

describe("recall hook post-tool-use", () => {
  it("adds an edited file to the session, which then enriches the session's context", async () => {
    const sessionId = "node-post-tool-use";
    const payload = JSON.stringify({
      session_id: sessionId,
      transcript_path: "/tmp/t.jsonl",
      cwd: "/Users/me/code/shop",
      permission_mode: "default",
      hook_event_name: "PostToolUse",
      tool_name: "Write",
      tool_input: { file_path: "/Users/me/code/shop/src/invoice-pdf.ts", content: "x".repeat(50_000) },
      tool_response: { filePath: "/Users/me/code/shop/src/invoice-pdf.ts", success: true },
      tool_use_id: "toolu_01ABC",
    });
    const run = await runRecall(["hook", "post-tool-use"], { stdin: payload, env: stackEnv() });
    expect(run).toMatchObject({ code: 0, stdout: "", stderr: "" });
    const context = await api("/v1/context", { scope: "any", prompt: "why was this file changed?", sessionId });
    expect(context.json.enrichedQuery).toContain("invoice-pdf.ts");
  });

  it("makes no request for a tool that touches no file", async () => {
    const server = await fakeServer();
    try {
      const payload = JSON.stringify({
        session_id: "s",
        cwd: "/x",
        hook_event_name: "PostToolUse",
        tool_name: "Bash",
        tool_input: { command: "ls" },
        tool_response: {},
      });
      const run = await runRecall(["hook", "post-tool-use"], { stdin: payload, env: { RECALL_URL: server.url, RECALL_API_KEY: "rk_any" } });
      expect(run).toMatchObject({ code: 0, stdout: "", stderr: "" });
      expect(server.requests).toEqual([]);
    } finally {
      await server.close();
    }
  });
});
