// Concurrent writes against the local stack (issue 19): N requests at once to one memory scope,
// one session's files and one show, over real HTTP on 127.0.0.1: Miniflare, as bench/support/worker.mjs
// starts it, or with --stack wrangler the stack `npm start` runs (wrangler dev). Counts the statuses, the rows stored (D1, the show's Durable Object) and, with
// --client, the retries the typed client made (src/client/client.ts: 503/429 with Retry-After, the same
// Idempotency-Key on each attempt).
//
//   node bench/concurrent-writes.mjs [--n 1000] [--client] [--stack miniflare|wrangler] [--only memories,files,show]
//
// Not part of `npm run bench` (its figures are correctness, not speed). Stops by itself.
import { parseArgs } from "node:util";
import { importTs } from "./support/bundle.mjs";
import { startWorker, createTenantKey } from "./support/worker.mjs";
import { startWranglerStack } from "./support/wrangler-stack.mjs";

const { values } = parseArgs({
  options: {
    n: { type: "string", default: "1000" },
    client: { type: "boolean", default: false },
    stack: { type: "string", default: "miniflare" },
    only: { type: "string", default: "memories,files,show" },
  },
});
const N = Number(values.n);
const only = new Set(values.only.split(","));

/** The Worker under test: its URL, a key, a way to count rows in its D1 (SQL with the run's own ids inlined), and close(). */
async function startStack() {
  if (values.stack === "wrangler") {
    const stack = await startWranglerStack();
    return { ...stack, count: async (sql) => Number(stack.scalar(sql)) };
  }
  const worker = await startWorker({ helperEmbedder: false });
  const { key } = await createTenantKey(worker.db, "concurrent writes");
  return { url: worker.url, key, count: async (sql) => Number((await worker.db.prepare(sql).first()).n), close: () => worker.close() };
}
const worker = await startStack();
const key = worker.key;
console.log(
  `${N} concurrent requests per route, stack: ${values.stack}${values.client ? ", the typed client's retries" : ", plain fetch (no retries)"}`,
);
const run = Date.now().toString(36);

// --client: the typed client's own retrying fetch (src/client/retry.ts), bundled as the bench does.
const retryingFetch = values.client ? (await importTs(new URL("../src/client/retry.ts", import.meta.url))).retryingFetch : null;

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
    (i) => ({
      path: "/v1/memories",
      body: { scope, content: `Concurrent fact number ${i} about ${run}: item ${i * 7919}`, memoryType: "fact" },
    }),
    () => worker.count(`SELECT count(*) AS n FROM memories WHERE scope = '${scope}'`),
  );
}
if (only.has("files")) {
  const session = `s-${run}`;
  await fire(
    "POST /v1/sessions/:id/files",
    (i) => ({ path: `/v1/sessions/${session}/files`, body: { files: [{ path: `src/file-${i}.ts` }] } }),
    () => worker.count(`SELECT count(*) AS n FROM session_files WHERE session_id = '${session}'`),
  );
}
if (only.has("show")) {
  const showId = `show-${run}`;
  await fire(
    "POST /v1/shows/:id/questions (one show)",
    (i) => ({
      path: `/v1/shows/${showId}/questions`,
      body: { questions: [{ text: `Question ${i}: what happened at minute ${i} of ${run}?` }] },
    }),
    async () => {
      const response = await fetch(`${worker.url}/v1/shows/${showId}/status`, { headers: { authorization: `Bearer ${key}` } });
      return (await response.json()).questionCount;
    },
  );
}
await worker.close();
