// docs/reports/memory.md from results/memory.json (bench/memory.bench.mjs): what one isolate holds
// against the budget of src/platform/isolate/memory.ts. Pure, like report.mjs.

const mb = (x) => (Number.isFinite(x) ? `${x.toFixed(1)} MB` : "–");
/** What the requests in flight held, each: the live heap during the burst less what stayed after it. */
const perRequest = (h, n) => {
  const kb = ((h.peakLiveDuringStorm - h.afterStorm?.total) * 1024) / n;
  return Number.isFinite(kb) ? `~${Math.round(kb)} KB` : "–";
};
const bytes = (x) => (Number.isFinite(x) ? `${Math.round(x).toLocaleString("en")} B` : "–");

/** The page, or its "not measured" line. */
export function renderMemory(r, { generated, notMeasured, when, machineLine }) {
  const md = ["# Isolate memory: what one Worker isolate holds", "", generated, ""];
  if (!r) return [...md, notMeasured("memory")].join("\n");
  const h = r.heapMB ?? {};
  const b = r.budget ?? {};
  md.push(
    `Made by \`${r.command ?? "npm run bench -- memory"}\` on ${when(r.at)}, at commit \`${r.commit ?? "not recorded"}\`, on ${machineLine(r.machine)}.`,
    "",
    `The Worker runs under Miniflare with production's cache budget and the local ${r.dimensions}-dimension model; its V8 heap is read through the inspector after a full GC. The exact index's vectors live in WebAssembly memory, which V8 does not count: it is allocated exactly as the budget counts it (capacity × bytes a slot, in 64 KB pages). How the budget is set: [isolate memory](../design/isolate-memory.md).`,
    "",
    "## The budget",
    "",
    "| cache | at most |",
    "|---|---|",
    `| exact index snapshots | ${mb(b.vectorSnapshotsMB)} |`,
    `| FAQ rows | ${mb(b.faqRowsMB)} |`,
    `| recent query vectors | ${mb(b.recentEmbeddingsMB)} |`,
    `| **all caches** | **${mb(b.cachesMB)}** of the isolate's ${mb(b.isolateMB)} |`,
    "",
    "## Measured",
    "",
    "| state | heap in all | JS objects | array buffers |",
    "|---|---|---|---|",
    ...[
      ["a new isolate", h.started],
      ["after one request of each kind (code and tables)", h.warm],
      [`${r.memories.toLocaleString("en")} memory vectors cached`, h.withMemories],
      [`and ${r.faqs.toLocaleString("en")} FAQs + ${(r.faqs * 3).toLocaleString("en")} variants searched`, h.withFaqs],
      [`after ${r.storm.toLocaleString("en")} concurrent requests`, h.afterStorm],
    ].map(([label, x]) => `| ${label} | ${mb(x?.total)} | ${mb(x?.js)} | ${mb(x?.buffers)} |`),
    "",
    `- A cached vector of ${r.dimensions} dimensions: ${bytes(r.perVector?.jsBytes)} of JS heap (the budget counts ${bytes(r.perVector?.accountedJsBytes)}, and ${bytes(r.perVector?.accountedBytes)} with its WebAssembly row).`,
    `- The FAQ tenant's rows: about ${mb(r.faqRowsMB)} of JS heap.`,
    `- ${r.storm.toLocaleString("en")} concurrent requests (half \`/v1/context\`, half FAQ search, each a new text) took ${r.stormSeconds?.toFixed(1)} s. While they were in flight the heap held ${mb(h.peakLiveDuringStorm)} after a full GC at its highest sample (${perRequest(h, r.storm)} a request in flight), and ${mb(h.afterStorm?.total)} after them. workerd's resident memory went from ${mb(r.workerdRssMB?.before)} to a peak of ${mb(r.workerdRssMB?.peakDuringStorm)} (${mb(r.workerdRssMB?.after)} after): the runtime's own memory per request in flight, outside the isolate. Statuses: ${Object.entries(
      r.statuses ?? {},
    )
      .map(([status, n]) => `${n} × ${status}`)
      .join(", ")}.`,
  );
  return md.join("\n");
}
