/**
 * `npm start` (scripts/start.mjs) when it cannot start: it exits non-zero with one clear line.
 * Before (issue 34), a busy port made workerd fatal and wrangler dev exit 1, yet `npm start`
 * printed its banner and exited 0. The whole stack is not started here: a taken port is refused
 * before anything is installed or migrated, and the exit code rule is a function of its own.
 */
import { spawn } from "node:child_process";
import { createServer, type Server } from "node:net";
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
