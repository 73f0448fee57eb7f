// `npm start` (wrangler dev behind its ProxyWorker, the local embedder) as a child process on free
// 127.0.0.1 ports with a fresh state folder, for measurements that must see what a user of the
// local stack sees. D1 is read back with `wrangler d1 execute --local` on the same state folder.
import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const DEV_KEY = "rk_dev_concurrent_writes";

function freePort() {
  return new Promise((resolve) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

export async function startWranglerStack() {
  const state = mkdtempSync(join(tmpdir(), "recall-stack-"));
  const [port, embedderPort] = [await freePort(), await freePort()];
  const child = spawn(process.execPath, [join(root, "scripts", "start.mjs")], {
    cwd: root,
    env: { ...process.env, PORT: String(port), EMBEDDER_PORT: String(embedderPort), RECALL_STATE_DIR: state, RECALL_DEV_API_KEY: DEV_KEY },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  child.stderr.resume();
  await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("npm start did not become ready in 180 s")), 180_000);
    child.stdout.on("data", (chunk) => {
      if (String(chunk).includes("Recall is running at")) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once("exit", (code) => reject(new Error(`npm start exited (${code})`)));
  });
  child.stdout.resume();
  return {
    url: `http://127.0.0.1:${port}`,
    key: DEV_KEY,
    /** The first column of the first row of `sql`, run on the stack's local D1. */
    scalar(sql) {
      const out = execFileSync(
        "npx",
        ["wrangler", "d1", "execute", "DB", "--local", "--env", "local", "--persist-to", state, "--json", "--command", sql],
        { cwd: root, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] },
      );
      const row = JSON.parse(out)[0].results[0];
      return Object.values(row)[0];
    },
    async close() {
      try {
        process.kill(-child.pid, "SIGTERM");
      } catch {}
      await new Promise((resolve) => setTimeout(resolve, 1000));
      rmSync(state, { recursive: true, force: true });
    },
  };
}
