// Concurrent writes against the local stack (issue 19): N requests at once to one memory scope,
// one session's files and one show, over real HTTP on 127.0.0.1 (Miniflare, as bench/support/worker.mjs
// starts it). Counts the statuses, the rows stored (D1, the show's Durable Object) and, with
// --client, the retries the typed client made (src/client.ts: 503/429 with Retry-After, the same
// Idempotency-Key on each attempt).
//
//   node bench/concurrent-writes.mjs [--n 1000] [--client] [--only memories,files,show]
//
// Not part of `npm run bench` (its figures are correctness, not speed). Stops by itself.
import { parseArgs } from "node:util";
import { importTs } from "./support/bundle.mjs";
import { startWorker, createTenantKey } from "./support/worker.mjs";

const { values } = parseArgs({
  options: { n: { type: "string", default: "1000" }, client: { type: "boolean", default: false }, only: { type: "string", default: "memories,files,show" } },
});
const N = Number(values.n);
const only = new Set(values.only.split(","));
const worker = await startWorker({ helperEmbedder: false });
const { key, tenantId } = await createTenantKey(worker.db, "concurrent writes");
const run = Date.now().toString(36);

// --client: the typed client's own retrying fetch (src/client-retry.ts), bundled as the bench does.
const retryingFetch = values.client ? (await importTs(new URL("../src/client-retry.ts", import.meta.url))).retryingFetch : null;

async function fire(label, makeRequest, countRows) {
  const statuses = new Map();
  const bodies = new Map();
  let retries = 0;
  const retryReasons = new Map();
  const onRetry = ({ status, error }) => {
    retries++;
    const reason = status ? String(status) : `${error?.cause?.code ?? error?.message}`;
    retryReasons.set(reason, (retryReasons.get(reason) ?? 0) + 1);
  };
  const fetcher = retryingFetch ? retryingFetch(undefined, { onRetry }) : fetch;
  const started = Date.now();
  await Promise.all(
    Array.from({ length: N }, async (_, i) => {
      const { path, body } = makeRequest(i);
      let status;
      try {
        const response = await fetcher(`${worker.url}${path}`, {
          method: "POST",
          headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
          body: JSON.stringify(body),
        });
        status = String(response.status);
        const text = await response.text();
        if (!response.ok && !bodies.has(status)) bodies.set(status, text.slice(0, 160));
      } catch (error) {
        status = `fetch error: ${error.cause?.code ?? error.message}`;
      }
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
    }),
  );
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  const rows = await countRows();
  console.log(
    `${label.padEnd(34)} n=${N}  stored=${rows}  statuses=${JSON.stringify(Object.fromEntries(statuses))}  client retries=${retryingFetch ? `${retries} ${JSON.stringify(Object.fromEntries(retryReasons))}` : "n/a"}  ${seconds}s`,
  );
  for (const [status, body] of bodies) console.log(`  first ${status} body: ${body.replace(/\s+/g, " ")}`);
}

if (only.has("memories")) {
  const scope = `concurrent-${run}`;
  await fire(
    "POST /v1/memories (one scope)",
    (i) => ({ path: "/v1/memories", body: { scope, content: `Concurrent fact number ${i} about ${run}: item ${i * 7919}`, memoryType: "fact" } }),
    async () => (await worker.db.prepare("SELECT count(*) AS n FROM memories WHERE tenant_id = ? AND scope = ?").bind(tenantId, scope).first()).n,
  );
}
if (only.has("files")) {
  const session = `s-${run}`;
  await fire(
    "POST /v1/sessions/:id/files",
    (i) => ({ path: `/v1/sessions/${session}/files`, body: { files: [{ path: `src/file-${i}.ts` }] } }),
    async () => (await worker.db.prepare("SELECT count(*) AS n FROM session_files WHERE tenant_id = ? AND session_id = ?").bind(tenantId, session).first()).n,
  );
}
if (only.has("show")) {
  const showId = `show-${run}`;
  await fire(
    "POST /v1/shows/:id/questions (one show)",
    (i) => ({ path: `/v1/shows/${showId}/questions`, body: { questions: [{ text: `Question ${i}: what happened at minute ${i} of ${run}?` }] } }),
    async () => {
      const response = await fetch(`${worker.url}/v1/shows/${showId}/status`, { headers: { authorization: `Bearer ${key}` } });
      return (await response.json()).questionCount;
    },
  );
}
await worker.close();
