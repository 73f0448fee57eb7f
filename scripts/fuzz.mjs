// `npm run fuzz`: schema-driven fuzzing of the local Worker (fuzz/run.ts). Every operation of its
// OpenAPI document gets requests valid by the schemas and requests that break them; it fails on a
// 5xx, an undocumented status, a body off its schema, or an error that leaks internals.
//   npm run fuzz                                   # 20,000 requests, a Worker of its own (Miniflare)
//   npm run fuzz -- --url http://127.0.0.1:8767    # the Worker `npm start` runs (dev key = admin)
//   npm run fuzz -- --requests 2000 --seed 42 --time-limit 300 --only postV1Memories
//   npm run fuzz -- --seed S --only OP --path P    # replay a failure (printed when one happens)
// Prints a table per operation; failures (with seed and path) go to results/fuzz/.
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { importTs } from "../bench/support/bundle.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const { values: args } = parseArgs({
  options: {
    requests: { type: "string", default: "20000" },
    "time-limit": { type: "string", default: "3600" },
    seed: { type: "string" },
    only: { type: "string" },
    path: { type: "string" },
    url: { type: "string" },
    key: { type: "string", default: process.env.RECALL_DEV_API_KEY ?? "rk_dev_local_only_change_me" },
  },
});
const seed = args.seed === undefined ? Math.floor(Math.random() * 2 ** 31) : Number(args.seed);
const requests = Number(args.requests);
const timeLimitMs = Number(args["time-limit"]) * 1000;

const { fuzz, formatTable } = await importTs(new URL("../fuzz/entry.ts", import.meta.url));

let worker;
let send;
let adminKey = args.key;
if (args.url) {
  const base = args.url.replace(/\/$/, "");
  send = async ({ method, path, headers, body }) => {
    const response = await fetch(`${base}${path}`, { method, headers, body });
    return { status: response.status, contentType: response.headers.get("content-type"), text: await response.text() };
  };
} else {
  const { startWorker, createTenantKey } = await import("../bench/support/worker.mjs");
  console.log("starting a Worker of its own (Miniflare, local embedder)…");
  worker = await startWorker();
  adminKey = (await createTenantKey(worker.db, "fuzz")).key;
  send = async ({ method, path, headers, body }) => {
    const response = await worker.mf.dispatchFetch(`http://recall.fuzz${path}`, { method, headers, body });
    return { status: response.status, contentType: response.headers.get("content-type"), text: await response.text() };
  };
}

async function api(method, path, body) {
  const response = await send({
    method,
    path,
    headers: { authorization: `Bearer ${adminKey}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  if (response.status >= 300) throw new Error(`${method} ${path} answered ${response.status}: ${response.text}`);
  return JSON.parse(response.text);
}

try {
  const doc = JSON.parse((await send({ method: "GET", path: "/openapi.json", headers: {} })).text);
  const client = await api("POST", "/v1/admin/keys", { role: "client", name: "fuzz" });
  const secret = await api("POST", "/v1/admin/webhook-secrets", { overlapHours: 168 });
  const ctx = { adminKey, clientKey: client.key, webhook: { tenantId: secret.tenantId, secret: secret.secret } };
  console.log(
    `fuzzing ${Object.keys(doc.paths).length} paths: ${requests} requests, ≤ ${timeLimitMs / 1000} s, seed ${seed}${args.only ? `, only ${args.only}` : ""}`,
  );
  const started = Date.now();
  const reports = await fuzz(doc, send, ctx, {
    requests,
    timeLimitMs,
    seed,
    ...(args.only ? { only: args.only.split(",") } : {}),
    ...(args.path ? { replayPath: args.path } : {}),
    onOperation: (r) => process.stdout.write(`  ${r.method} ${r.path}: ${r.requests} requests, ${r.failures.length} failures\n`),
  });
  const seconds = (Date.now() - started) / 1000;
  const total = reports.reduce((n, r) => n + r.requests, 0);
  const failures = reports.flatMap((r) => r.failures);
  console.log(`\n${formatTable(reports)}\n`);
  console.log(
    `${total} requests in ${seconds.toFixed(0)} s (${(total / seconds).toFixed(0)}/s), seed ${seed}, ${failures.length} failures`,
  );
  if (failures.length > 0) {
    const dir = join(root, "results", "fuzz");
    mkdirSync(dir, { recursive: true });
    const file = join(dir, `failures-${new Date().toISOString().replace(/[:.]/g, "-")}.json`);
    writeFileSync(
      file,
      JSON.stringify(failures, (_, v) => (v instanceof Uint8Array ? { bytes: [...v] } : v), 2),
    );
    for (const f of failures) {
      console.log(
        `\n✗ ${f.operationId}: ${f.problems.join("; ")}\n  ${f.request.method} ${f.request.path.slice(0, 200)}  → ${f.status} ${f.body.slice(0, 300)}`,
      );
      // f.seed is the operation's own seed (run seed + its index); alone under --only, its index is 0.
      console.log(`  replay: npm run fuzz -- --seed ${f.seed} --only ${f.operationId} --path ${f.counterexamplePath}`);
    }
    console.log(`\nfailures saved to ${file}`);
  }
  process.exitCode = failures.length > 0 || total < Math.min(requests, 1) ? 1 : 0;
} finally {
  await worker?.close();
}
