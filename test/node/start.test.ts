/**
 * `npm start` (scripts/start.mjs) when it cannot start: it exits non-zero with one clear line.
 * Before (issue 34), a busy port made workerd fatal and wrangler dev exit 1, yet `npm start`
 * printed its banner and exited 0. A taken port is refused before anything is installed or
 * migrated, and the exit code rule is a function of its own. Once, the whole stack is started on
 * free ports to see that it is quiet (issue 46: it printed 712 lines).
 */
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
// @ts-expect-error: plain ESM module of scripts/start.mjs, no type declarations
import { failureExitCode, portInUse, portInUseLine } from "../../scripts/support/start-checks.mjs";

const START = fileURLToPath(new URL("../../scripts/start.mjs", import.meta.url));

let holder: Server | undefined;
afterEach(() => holder?.close());

/** A port something else already listens on (what a second `npm start` meets). */
async function takenPort(): Promise<number> {
  holder = createServer();
  await new Promise<void>((resolve) => holder!.listen({ port: 0, host: "127.0.0.1" }, resolve));
  return (holder.address() as { port: number }).port;
}

function runStart(env: Record<string, string>) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, [START], { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("exit", (code) => resolve({ code, stdout, stderr }));
  });
}

describe("npm start when it cannot start", () => {
  it("exits 1 with one line naming the port when the port is taken, before installing or migrating anything", async () => {
    const port = await takenPort();
    const run = await runStart({ PORT: String(port) });
    expect(run.code).toBe(1);
    expect(run.stderr.trim()).toBe(`recall: port ${port} is in use — set PORT=<another port> or stop the other process`);
    expect(run.stdout).toBe("");
  });

  it("tells a taken port from a free one", async () => {
    const port = await takenPort();
    expect(await portInUse(port)).toBe(true);
    holder!.close();
    holder = undefined;
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await portInUse(port)).toBe(false);
    expect(portInUseLine(8787)).toBe("recall: port 8787 is in use — set PORT=<another port> or stop the other process");
  });

  it("never exits 0 once wrangler dev ended on its own: its code when it failed, else 1", () => {
    expect(failureExitCode(1)).toBe(1);
    expect(failureExitCode(3)).toBe(3);
    expect(failureExitCode(0)).toBe(1);
    expect(failureExitCode(null)).toBe(1);
  });
});

/** A port nothing listens on: taken from the OS, then released. */
async function freePort(): Promise<number> {
  const port = await takenPort();
  await new Promise((resolve) => holder!.close(resolve));
  holder = undefined;
  return port;
}

describe("npm start when it starts", () => {
  it("prints a line a step and the banner; the tools' own output goes to start.log", { timeout: 180_000 }, async () => {
    const state = mkdtempSync(join(tmpdir(), "recall-start-"));
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      PORT: String(await freePort()),
      EMBEDDER_PORT: String(await freePort()),
      RECALL_STATE_DIR: state,
    };
    // As a person's shell has it: this suite's process runs with WRANGLER_LOG=error, which silences wrangler.
    delete env.RECALL_VERBOSE;
    delete env.WRANGLER_LOG;
    const child = spawn(process.execPath, [START], { env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise((resolve) => child.on("exit", resolve));
    try {
      await new Promise<void>((resolve, reject) => {
        child.stdout.on("data", (chunk: Buffer) => {
          stdout += chunk.toString();
          if (stdout.includes("Ctrl-C stops everything")) resolve();
        });
        child.on("exit", (code) => reject(new Error(`npm start exited ${code}: ${stderr}`)));
      });
    } finally {
      child.kill("SIGINT");
      await exited;
    }
    expect(stderr).toBe("");
    expect(stdout.trim().split("\n").length).toBeLessThanOrEqual(25);
    expect(stdout).not.toMatch(/Migrations to be applied|Processing wrangler\.toml/);
    const log = readFileSync(join(state, "start.log"), "utf8");
    expect(log).toMatch(/Migrations to be applied|No migrations to apply/);
  });
});
