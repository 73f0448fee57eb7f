// Minimal reproduction (issue 19): N concurrent POSTs to a Worker that does nothing but read its
// body and answer 201 — no Recall code, no D1, no embedder — run by Miniflare (workerd) on
// 127.0.0.1 as `npm start`, the bench and the load test run Recall. Counts what the client sees.
// Any "fetch error" here is the local runtime's: the Worker never throws.
//
//   node bench/workerd-connection-resets.mjs [--n 1000] [--rounds 3] [--d1] [--fresh] [--delay MS] [--wrangler]
//
// --delay MS makes the Worker wait MS before answering (as a write that embeds and commits does);
// --wrangler runs the same Worker under `wrangler dev` (what `npm start` runs) instead of Miniflare.
//
// Behind `wrangler dev` (npm start) the same socket failures come back as wrangler's ProxyWorker
// text "Your worker restarted mid-request" with status 503 (node_modules/wrangler/wrangler-dist/
// ProxyWorker.js answers that for any failed non-GET fetch to the user Worker).
import { parseArgs } from "node:util";
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { Miniflare } from "miniflare";

/** One POST on a new connection (no keep-alive), with node:http: isolates a keep-alive race from the rest. */
function postFresh(url, body) {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      url,
      { method: "POST", agent: false, headers: { "content-type": "application/json", connection: "close" } },
      (res) => {
        res.resume();
        res.on("end", () => resolve({ status: res.statusCode }));
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

const { values } = parseArgs({
  options: {
    wrangler: { type: "boolean", default: false },
    delay: { type: "string", default: "0" },
    fresh: { type: "boolean", default: false },
    n: { type: "string", default: "1000" },
    rounds: { type: "string", default: "3" },
    d1: { type: "boolean", default: false },
  },
});
const N = Number(values.n);
const script = `export default {
  async fetch(request, env) {
    const body = await request.text();
    ${Number(values.delay) > 0 ? `await new Promise((resolve) => setTimeout(resolve, ${Number(values.delay)}));` : ""}
    ${values.d1 ? 'await env.DB.prepare("INSERT INTO t (body) VALUES (?)").bind(body).run();' : ""}
    return Response.json({ ok: true, bytes: body.length }, { status: 201 });
  },
};`;
let url;
let stop;
if (values.wrangler) {
  if (values.d1) throw new Error("--d1 runs under Miniflare only");
  const dir = mkdtempSync(join(tmpdir(), "workerd-resets-"));
  writeFileSync(join(dir, "worker.js"), script);
  const port = 20000 + Math.floor(Math.random() * 20000);
  const wrangler = join(dirname(fileURLToPath(import.meta.url)), "..", "node_modules", ".bin", "wrangler");
  const child = spawn(
    wrangler,
    [
      "dev",
      "worker.js",
      "--name",
      "resets",
      "--compatibility-date",
      "2026-04-20",
      "--ip",
      "127.0.0.1",
      "--port",
      String(port),
      "--show-interactive-dev-session=false",
    ],
    { cwd: dir, stdio: "ignore", detached: true },
  );
  url = `http://127.0.0.1:${port}/write`;
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(url.replace("/write", "/"))).status) break;
    } catch {}
    if (i > 120) throw new Error("wrangler dev did not start");
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  stop = async () => {
    process.kill(-child.pid, "SIGTERM");
    rmSync(dir, { recursive: true, force: true });
  };
} else {
  const mf = new Miniflare({ modules: true, script, compatibilityDate: "2026-04-20", d1Databases: values.d1 ? ["DB"] : [] });
  url = String(await mf.ready);
  if (values.d1) await (await mf.getD1Database("DB")).exec("CREATE TABLE t (id INTEGER PRIMARY KEY, body TEXT)");
  stop = () => mf.dispose();
}

for (let round = 1; round <= Number(values.rounds); round++) {
  const outcomes = new Map();
  const firstBodies = {};
  const started = Date.now();
  await Promise.all(
    Array.from({ length: N }, async (_, i) => {
      let outcome;
      try {
        const body = JSON.stringify({ files: [{ path: `src/file-${i}.ts` }] });
        if (values.fresh) {
          outcome = String((await postFresh(url, body)).status);
        } else {
          const response = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body });
          const text = await response.text();
          outcome = String(response.status);
          if (response.status !== 201) firstBodies[outcome] ??= text.slice(0, 120);
        }
      } catch (error) {
        outcome = `fetch error: ${error.cause?.code ?? error.message}`;
      }
      outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);
    }),
  );
  console.log(
    `round ${round}: ${N} concurrent POSTs${values.fresh ? " (new connection each)" : " (fetch, keep-alive)"}${values.d1 ? " (+1 D1 insert each)" : ""}${Number(values.delay) ? ` (answering after ${values.delay} ms)` : ""}${values.wrangler ? " via wrangler dev" : ""} → ${JSON.stringify(Object.fromEntries(outcomes))} in ${Date.now() - started} ms${Object.keys(firstBodies).length ? `; first bodies: ${JSON.stringify(firstBodies)}` : ""}`,
  );
}
await stop();
