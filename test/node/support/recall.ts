import { spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { inject } from "vitest";

export interface RecallRun {
  code: number | null;
  stdout: string;
  stderr: string;
  ms: number;
}

/**
 * Runs the real `recall` command (the bundle `bin` points to) with `stdin`, in a clean
 * environment: HOME and the config file are in a fresh temp dir, so the user's own settings never
 * leak in. `env` adds variables (RECALL_URL, RECALL_API_KEY, …).
 */
export function runRecall(
  args: string[],
  { stdin = "", env = {}, cwd }: { stdin?: string; env?: Record<string, string>; cwd?: string } = {},
): Promise<RecallRun> {
  const home = mkdtempSync(join(tmpdir(), "recall-home-"));
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [inject("cliPath"), ...args], {
      cwd: cwd ?? home,
      env: { PATH: process.env.PATH ?? "", HOME: home, RECALL_CONFIG: join(home, "recall.json"), ...env },
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    child.once("error", reject);
    child.once("close", (code) => resolve({ code, stdout, stderr, ms: performance.now() - started }));
    child.stdin.on("error", () => {}); // EPIPE when the process ends before reading all of stdin
    child.stdin.end(stdin);
  });
}

/** The environment that points `recall` at the test stack's Worker. */
export function stackEnv(extra: Record<string, string> = {}): Record<string, string> {
  return { RECALL_URL: inject("recallUrl"), RECALL_API_KEY: inject("recallKey"), ...extra };
}

/** A local HTTP server that counts the requests it gets and answers with `respond` (or hangs). */
export async function fakeServer(
  respond: (request: IncomingMessage) => { delayMs?: number; status?: number; body?: string } = () => ({ body: "{}" }),
) {
  const requests: string[] = [];
  const server: Server = createServer((request, response) => {
    requests.push(`${request.method} ${request.url}`);
    const { delayMs = 0, status = 200, body = "{}" } = respond(request);
    const timer = setTimeout(() => response.writeHead(status, { "content-type": "application/json" }).end(body), delayMs);
    response.on("close", () => clearTimeout(timer));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A URL where nothing listens: a port taken from the OS, then released. */
export async function deadUrl(): Promise<string> {
  const server = await fakeServer();
  await server.close();
  return server.url;
}

/** Claude Code's UserPromptSubmit input, as in the hooks reference. */
export function promptPayload(prompt: string, { sessionId = "abc123", cwd = "/Users/me/code/shop" } = {}) {
  return JSON.stringify({
    session_id: sessionId,
    transcript_path: `/Users/me/.claude/projects/shop/${sessionId}.jsonl`,
    cwd,
    permission_mode: "default",
    hook_event_name: "UserPromptSubmit",
    prompt,
  });
}

/** Calls the test stack's API directly. */
export async function api(path: string, body?: unknown) {
  const response = await fetch(`${inject("recallUrl")}${path}`, {
    method: body === undefined ? "GET" : "POST",
    headers: { authorization: `Bearer ${inject("recallKey")}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, json: (await response.json()) as Record<string, any> };
}
