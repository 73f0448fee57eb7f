import { mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { addRecallHooks } from "../../src/cli/settings";
import { scopeForProject } from "../../src/features/hooks/claude-code";
import { fakeServer, runRecall, stackEnv } from "./support/recall";

const theirHooks = {
  permissions: { allow: ["Bash(npm test)"] },
  hooks: {
    UserPromptSubmit: [{ hooks: [{ type: "command", command: "~/bin/log-prompt.sh" }] }],
    PostToolUse: [{ matcher: "Write|Edit", hooks: [{ type: "command", command: "npx prettier --write", timeout: 30 }] }],
    Stop: [{ hooks: [{ type: "command", command: "say done" }] }],
  },
};

describe("recall init claude", () => {
  it("adds both hooks to the project's .claude/settings.json and keeps every other hook and setting", async () => {
    const project = mkdtempSync(join(tmpdir(), "recall-project-"));
    mkdirSync(join(project, ".claude"));
    writeFileSync(join(project, ".claude", "settings.json"), JSON.stringify(theirHooks));

    const run = await runRecall(["init", "claude"], { cwd: project });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("added UserPromptSubmit");
    expect(run.stdout).toContain("added PostToolUse (Read|Edit|Write|MultiEdit)");
    const settings = JSON.parse(readFileSync(join(project, ".claude", "settings.json"), "utf8"));
    expect(settings.permissions).toEqual(theirHooks.permissions);
    expect(settings.hooks.Stop).toEqual(theirHooks.hooks.Stop);
    expect(settings.hooks.UserPromptSubmit[0]).toEqual(theirHooks.hooks.UserPromptSubmit[0]);
    expect(settings.hooks.PostToolUse[0]).toEqual(theirHooks.hooks.PostToolUse[0]);
    expect(settings.hooks.UserPromptSubmit[1]).toEqual({
      hooks: [{ type: "command", command: expect.stringMatching(/^node ".*recall\.mjs" hook user-prompt-submit$/), timeout: 5 }],
    });
    expect(settings.hooks.PostToolUse[1]).toEqual({
      matcher: "Read|Edit|Write|MultiEdit",
      hooks: [{ type: "command", command: expect.stringMatching(/hook post-tool-use$/), timeout: 5 }],
    });

    // Twice is the same as once.
    const again = await runRecall(["init", "claude"], { cwd: project });
    expect(again.stdout).toContain("already there; nothing changed");
    expect(JSON.parse(readFileSync(join(project, ".claude", "settings.json"), "utf8"))).toEqual(settings);
  });

  it("creates the user's ~/.claude/settings.json with --user", async () => {
    const run = await runRecall(["init", "claude", "--user", "--command", "recall"]);
    expect(run.code).toBe(0);
    const file = /^(\/.*settings\.json):$/m.exec(run.stdout)![1]!;
    expect(file).toMatch(/\/\.claude\/settings\.json$/);
    const settings = JSON.parse(readFileSync(file, "utf8"));
    expect(settings.hooks.UserPromptSubmit[0].hooks[0].command).toBe("recall hook user-prompt-submit");
  });

  it("refuses a settings file that is not JSON, leaving it as it was", async () => {
    const project = mkdtempSync(join(tmpdir(), "recall-project-"));
    mkdirSync(join(project, ".claude"));
    writeFileSync(join(project, ".claude", "settings.json"), "{ broken");
    const run = await runRecall(["init", "claude"], { cwd: project });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^recall: /);
    expect(readFileSync(join(project, ".claude", "settings.json"), "utf8")).toBe("{ broken");
  });
});

describe("addRecallHooks", () => {
  it("updates a Recall handler whose command moved, without duplicating it or touching its neighbours", () => {
    const before = {
      hooks: {
        UserPromptSubmit: [
          {
            hooks: [
              { type: "command", command: "mine.sh" },
              { type: "command", command: 'node "/old/clone/dist/cli/recall.mjs" hook user-prompt-submit' },
            ],
          },
        ],
      },
    };
    const { settings, changes } = addRecallHooks(before, 'node "/new/recall.mjs"');
    const groups = (settings.hooks as any).UserPromptSubmit;
    expect(groups).toHaveLength(1);
    expect(groups[0].hooks).toEqual([
      { type: "command", command: "mine.sh" },
      { type: "command", command: 'node "/new/recall.mjs" hook user-prompt-submit', timeout: 5 },
    ]);
    expect(changes).toEqual([
      'updated UserPromptSubmit: node "/new/recall.mjs" hook user-prompt-submit',
      expect.stringMatching(/^added PostToolUse/),
    ]);
    expect(before.hooks.UserPromptSubmit[0]!.hooks).toHaveLength(2); // the input is not mutated
  });

  it("rejects settings whose hooks are not the documented shape", () => {
    expect(() => addRecallHooks([], "recall")).toThrow(/not a JSON object/);
    expect(() => addRecallHooks({ hooks: [] }, "recall")).toThrow(/"hooks"/);
    expect(() => addRecallHooks({ hooks: { PostToolUse: {} } }, "recall")).toThrow(/hooks\.PostToolUse/);
  });
});

describe("recall configure", () => {
  it("writes the config file owner-only, never prints the key, and the hook uses it", async () => {
    const home = mkdtempSync(join(tmpdir(), "recall-config-"));
    const config = join(home, "nested", "config.json");
    const run = await runRecall(["configure", "--url", "http://127.0.0.1:1234/", "--api-key", "-", "--scope", "team:x"], {
      stdin: "rk_super_secret\n",
      env: { RECALL_CONFIG: config },
    });
    expect(run.code).toBe(0);
    expect(run.stdout).not.toContain("rk_super_secret");
    expect(run.stdout).toContain("apiKey=(set)");
    expect(statSync(config).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(config, "utf8"))).toEqual({ url: "http://127.0.0.1:1234/", apiKey: "rk_super_secret", scope: "team:x" });
  });
});

describe("recall status", () => {
  it("says the service answers and accepts the key, and shows the scope without the key", async () => {
    const run = await runRecall(["status"], { env: stackEnv({ CLAUDE_PROJECT_DIR: "/work/alpha" }) });
    expect(run).toMatchObject({ code: 0, stderr: "" });
    expect(run.stdout).toContain(`scope:  ${scopeForProject("/work/alpha")}`);
    expect(run.stdout).toContain("ok:     the service answers and accepts the key");
    expect(run.stdout).not.toContain(stackEnv().RECALL_API_KEY);
  });

  it("fails with one line for a wrong key", async () => {
    const run = await runRecall(["status"], { env: stackEnv({ RECALL_API_KEY: "rk_wrong" }) });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^recall: http:\/\/127\.0\.0\.1:\d+ refuses the API key\n$/);
  });

  it("says a service that takes the connection and never answers gave no answer, not that it cannot be reached", async () => {
    const silent = await fakeServer(() => ({ delayMs: 60_000 }));
    try {
      const run = await runRecall(["status"], { env: { RECALL_URL: silent.url, RECALL_API_KEY: "rk_any" } });
      expect(run.code).toBe(1);
      expect(run.stderr).toBe(`recall: ${silent.url} gave no answer within 5 s\n`);
    } finally {
      await silent.close();
    }
  });

  it("is listed by recall --help", async () => {
    const run = await runRecall(["--help"], { env: {} });
    expect(run.stdout).toMatch(/^ {2}recall status\n/m);
  });
});
