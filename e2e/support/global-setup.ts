import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { E2E_PORT } from "../../playwright.config";

const READY = /Recall is running at (\S+)/;
const START_TIMEOUT_MS = 180_000;

/** Starts `npm start`'s stack (scripts/start.mjs) on the suite's ports with a fresh state folder; returns the teardown. */
export default async function globalSetup(): Promise<() => Promise<void>> {
  if (process.env.E2E_BASE_URL) return async () => {};
  const stateDir = mkdtempSync(join(tmpdir(), "recall-e2e-"));
  const started = Date.now();
  const child = spawn(process.execPath, ["scripts/start.mjs"], {
    cwd: join(import.meta.dirname, "..", ".."),
    env: { ...process.env, PORT: String(E2E_PORT), EMBEDDER_PORT: String(E2E_PORT + 1), RECALL_STATE_DIR: stateDir },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  const output: string[] = [];
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`the local stack did not start within ${START_TIMEOUT_MS / 1000}s:\n${output.join("")}`)),
      START_TIMEOUT_MS,
    );
    const onData = (chunk: Buffer) => {
      output.push(chunk.toString());
      if (READY.test(output.join(""))) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", (chunk: Buffer) => output.push(chunk.toString()));
    child.on("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`the local stack exited (${code}) before it was ready:\n${output.join("")}`));
    });
  });
  console.log(`[e2e] local stack ready on port ${E2E_PORT} after ${((Date.now() - started) / 1000).toFixed(1)}s`);
  return () => stop(child, stateDir);
}

async function stop(child: ChildProcess, stateDir: string): Promise<void> {
  child.removeAllListeners("exit");
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  try {
    process.kill(-child.pid!, "SIGTERM");
  } catch {}
  await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5_000))]);
  try {
    process.kill(-child.pid!, "SIGKILL");
  } catch {}
  rmSync(stateDir, { recursive: true, force: true });
}
