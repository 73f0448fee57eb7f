// docs/reports/latency.md from results/latency.json (bench/latency.bench.mjs): each hot route's
// I/O graph as measured, and the projected time for three users. Pure, like report.mjs.

const steps = (s) =>
  Object.entries(s ?? {})
    .map(([step, n]) => `${step} ${n}`)
    .join(", ") || "none";
const ms = (x) => (Number.isFinite(x) ? `${Math.round(x)} ms` : "–");

/** The page, or its "not measured" line. */
export function renderLatency(r, { generated, notMeasured, when, machineLine }) {
  const md = ["# Latency at the edge: a model from each route's round trips", "", generated, ""];
  if (!r) return [...md, notMeasured("latency")].join("\n");
  const users = Object.keys(r.users ?? {});
  md.push(
    `Made by \`${r.command ?? "npm run bench -- latency"}\` on ${when(r.at)}, at commit \`${r.commit ?? "not recorded"}\`, on ${machineLine(r.machine)}.`,
    "",
    "Each hot route runs on the real Worker (Miniflare: local D1, KV and Durable Objects, the local embedder) with `x-recall-io: calls`, so its answer lists the round trips it waited for and their order (docs/design/round-trips.md). Every call then gets the latency of its kind for each user below, and the route's projected time is its slowest chain of calls (`criticalTime`, src/platform/observe/io-depth.ts) plus its own work, measured here (local p50 without the embedding; it still holds local I/O, so it is an upper bound).",
    "",
    "- **warm**: the same request again; its embedding is in the isolate.",
    "- **cold-ish**: a text never embedded: a KV read (a miss) and a model call.",
    "- Locally the vector index is the exact one over D1 (as in production for a collection below the crossover, VECTOR_EXACT_MAX); above it, its D1 read becomes a Vectorize query (`vec`).",
    "",
    "## Users",
    "",
    ...users.map((u) => `- **${u}**: ${r.users[u]}.`),
    "",
    "## Projected time per route",
    "",
    `| route | state | round trips waited for | depth | local work (p50) | ${users.map((u) => `${u}`).join(" | ")} |`,
    `|---|---|---|---|---|${users.map(() => "---").join("|")}|`,
    ...(r.rows ?? []).map(
      (row) =>
        `| ${row.route} | ${row.state} | ${steps(row.steps)} | ${row.seq} | ${ms(row.localMs)} | ${users.map((u) => ms(row.projected?.[u]?.totalMs)).join(" | ")} |`,
    ),
    "",
    "## Per-call latencies",
    "",
    `| step | ${users.join(" | ")} |`,
    `|---|${users.map(() => "---").join("|")}|`,
    ...Object.keys(r.latencyMs?.[users[0]] ?? {}).map((step) => `| ${step} | ${users.map((u) => ms(r.latencyMs[u][step])).join(" | ")} |`),
    "",
    "Where they come from:",
    "",
    ...(r.sources ?? []).map((s) => `- ${s}`),
    "",
  );
  return md.join("\n");
}
