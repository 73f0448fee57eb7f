/** The reports under docs/reports/ (`npm run report`): pure rendering from a small results fixture. */
import { describe, expect, it } from "vitest";
// @ts-expect-error: plain ESM module shared with the benches, no type declarations
import { renderReports } from "../../bench/support/report.mjs";
// @ts-expect-error: plain ESM module, no type declarations
import { writeReports } from "../../scripts/report.mjs";
import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const stamp = (command: string) => ({
  at: "2026-11-27T02:40:00.000Z",
  seconds: 900,
  command,
  commit: "abc1234+dirty",
  machine: {
    cores: 2,
    cpu: "Test CPU 9000",
    memoryGB: 8,
    node: "v20.20.2",
    platform: "linux-x64",
    loadAverageAtStart: [1.5, 1.2, 1.0],
    loadAverage: [2.1, 1.4, 1.1],
  },
});

const row = (set: string, system: string, mode: string, ndcg: number) => ({
  set,
  system,
  mode,
  ndcg,
  recall: ndcg + 0.1,
  mrr: ndcg - 0.05,
  msPerQuery: 12.3,
  queries: 40,
  ndcgInterval: { low: ndcg - 0.02, high: ndcg + 0.02 },
  recallInterval: { low: ndcg + 0.08, high: ndcg + 0.12 },
  mrrInterval: { low: ndcg - 0.07, high: ndcg - 0.03 },
});

const PEER = "seed-002 SQL on PGlite (tsvector + pgvector HNSW + RRF)";
const evalResult = {
  name: "eval",
  ...stamp("npm run eval"),
  embedder: "use-lite-512",
  k: 10,
  sets: [
    { set: "lcqmc", docs: 23557, queries: 3073, dropSelf: false, english: false },
    { set: "stackfaq", docs: 125, queries: 620, dropSelf: false, english: true },
  ],
  rows: [
    row("lcqmc", "Recall", "lexical", 0.853),
    { set: "lcqmc", system: "Recall", mode: "vector", skipped: "the local model cannot embed Chinese" },
    row("lcqmc", "Recall", "hybrid", 0.853),
    row("lcqmc", "Recall memories (seed 000)", "mem:text", 0.847),
    row("lcqmc", "Recall memories (seed 000)", "mem:hybrid", 0.845),
    row("stackfaq", "Recall", "lexical", 0.825),
    row("stackfaq", "Recall", "vector", 0.734),
    row("stackfaq", "Recall", "hybrid", 0.869),
    row("stackfaq", PEER, "hybrid", 0.743),
    row("stackfaq", "MiniSearch BM25", "lexical", 0.627),
    row("stackfaq", "Recall memories (seed 000)", "mem:text", 0.823),
    row("stackfaq", "Recall memories (seed 000)", "mem:vector", 0.735),
    row("stackfaq", "Recall memories (seed 000)", "mem:hybrid", 0.866),
  ],
  comparisons: [
    {
      set: "stackfaq",
      system: "Recall",
      hybrid: "hybrid",
      against: { system: "Recall", mode: "lexical" },
      kind: "better single",
      onlySingle: false,
      ndcg: { mean: 0.044, low: 0.023, high: 0.065 },
      recall: { mean: 0.027, low: 0.01, high: 0.045 },
    },
    {
      set: "stackfaq",
      system: "Recall",
      hybrid: "hybrid",
      against: { system: PEER, mode: "hybrid" },
      kind: "peer",
      onlySingle: false,
      ndcg: { mean: 0.126, low: 0.104, high: 0.148 },
      recall: { mean: 0.105, low: 0.081, high: 0.132 },
    },
  ],
  similar: [{ set: "stackfaq", k: 10, perQuery: 6.92, precision: 0.103, withoutFloorPrecision: 0.098 }],
};

const scanRow = (size: number, float: number, twoStage: number) => ({
  size,
  float: { n: 200, p50: float, p95: float * 1.2, p99: float * 1.3, max: float * 2 },
  twoStage: { n: 200, p50: twoStage, p95: twoStage * 1.2, p99: twoStage * 1.3, max: twoStage * 2 },
  recall: { 10: 1, 40: 0.998, 120: 0.9984 },
  loadFromPagesMs: 51,
  bytes: 20 * 2 ** 20,
});
const vectorScan = {
  name: "vector-scan",
  ...stamp("npm run bench -- vector"),
  dimensions: 512,
  queries: 200,
  windows: [10, 40, 120],
  rows: [scanRow(10_000, 2.14, 0.34), scanRow(40_000, 9.31, 0.94), scanRow(100_000, 23.24, 1.79)],
  fitsCache: 49152,
  scanBudgetMs: 20,
  crossover: 49152,
};

/** Every `<rect class="bar" …>` of an SVG as its data-group / data-series pair. */
const bars = (svg: string) =>
  [...svg.matchAll(/<rect class="bar" data-group="([^"]*)" data-series="([^"]*)"/g)].map((m) => `${m[1]} / ${m[2]}`);

describe("npm run report", () => {
  const files: Record<string, string> = renderReports({ eval: evalResult, "vector-scan": vectorScan });

  it("heads the quality report with when, the machine, the commit and the command", () => {
    const md = files["quality.md"]!;
    expect(md).toContain("2026-11-27 02:40 UTC");
    expect(md).toContain("2 cores (Test CPU 9000), 8 GB memory, Node v20.20.2");
    expect(md).toContain("`abc1234+dirty`");
    expect(md).toContain("`npm run eval`");
    expect(md).toContain("indicative");
  });

  it("puts the figures in the quality tables", () => {
    const md = files["quality.md"]!;
    expect(md).toContain("| Recall | hybrid | 0.869 | [0.849, 0.889] | 0.969 | [0.949, 0.989] | 0.819 | [0.799, 0.839] | 12.3 |");
    expect(md).toContain("| Recall | vector | not run: the local model cannot embed Chinese |");
    expect(md).toContain("| stackfaq | hybrid − lexical | +0.044 | [+0.023, +0.065] | +0.027 | [+0.010, +0.045] | hybrid better |");
    expect(md).toContain("hybrid − seed-002 SQL on PGlite hybrid");
    expect(md).toContain("| stackfaq | 6.92 (of 10) | 10.3% | 9.8% |");
    expect(md).toContain("![NDCG@10 of each mode and peer per data set, with 95% intervals](quality-ndcg.svg)");
  });

  it("draws one NDCG bar per set and measured mode, with its whisker, and marks the mode not run", () => {
    const svg = files["quality-ndcg.svg"]!;
    expect(svg.startsWith("<svg")).toBe(true);
    const drawn = bars(svg);
    const measured = evalResult.rows.filter((r) => !("skipped" in r)).map((r) => `${r.set} / ${r.system}|${r.mode}`);
    expect(drawn.sort()).toEqual(measured.sort());
    expect(svg.match(/class="whisker"/g)).toHaveLength(measured.length);
    expect(svg).toContain('data-group="lcqmc" data-series="Recall|vector" class="missing"');
    for (const name of ["lexical", "vector", "hybrid", "mem:text", "MiniSearch BM25:", "seed-002 SQL on PGlite:"])
      expect(svg).toContain(`>${name}</text>`);
  });

  it("draws the scan's latency against size and its speed-up", () => {
    const md = files["speed.md"]!;
    expect(md).toContain("`npm run bench -- vector`");
    expect(md).toContain("`abc1234+dirty`");
    expect(md).toContain("| 40,000 | 9.31 ms / 11.17 ms | 0.94 ms / 1.13 ms | 9.9× | 1.0000 | 0.9980 | 0.9984 | 51.00 ms | 20 MB |");
    expect(md).toContain("![Scan time per query against collection size](speed-vector-scan.svg)");
    expect(md).toContain(
      "| Vector scan | two-stage recall@10 of the float32 ranking, lowest over sizes | ≥ 0.99 | 1.0000 (every size) | yes |",
    );
    const lines = files["speed-vector-scan.svg"]!;
    expect(lines.match(/<polyline class="line"/g)).toHaveLength(4);
    expect(lines.match(/<circle class="point"/g)).toHaveLength(12);
    expect(bars(files["speed-vector-speedup.svg"]!)).toEqual([
      "10k vectors / speed-up",
      "40k vectors / speed-up",
      "100k vectors / speed-up",
    ]);
    expect(files["speed-vector-speedup.svg"]).toContain(">6.3×</text>");
  });

  it("says which bench was not run instead of failing", () => {
    expect(files["speed.md"]).toContain("Not measured in this run: run `BENCH_FAQ_BACKENDS=d1 npm run bench -- faq-search`.");
    const empty: Record<string, string> = renderReports({});
    expect(empty["quality.md"]).toContain("Not measured in this run: run `npm run eval`.");
    expect(empty["speed.md"]).toContain("Not measured in this run: run `npm run bench -- vector`.");
    expect(empty["latency.md"]).toContain("Not measured in this run: run `npm run bench -- latency`.");
    expect(empty["memory.md"]).toContain("Not measured in this run: run `npm run bench -- memory`.");
    expect(empty["capacity.md"]).toContain("Not measured in this run: run `npm run bench -- capacity`.");
    expect(empty["placement.md"]).toContain("Not measured in this run: run `node bench/placement-sim.mjs`.");
    expect(Object.keys(empty).sort()).toEqual(["capacity.md", "latency.md", "memory.md", "placement.md", "quality.md", "speed.md"]);
  });

  it("sets the isolate's measured memory against its budget", () => {
    const state = (total: number) => ({ total, js: total - 1, buffers: 1 });
    const memory = {
      dimensions: 512,
      memories: 5000,
      faqs: 3000,
      storm: 1000,
      budget: { isolateMB: 128, cachesMB: 76, vectorSnapshotsMB: 48, faqRowsMB: 24, recentEmbeddingsMB: 4 },
      heapMB: {
        started: state(18.8),
        warm: state(20.2),
        withMemories: state(24),
        withFaqs: state(40),
        afterStorm: state(41),
        peakLiveDuringStorm: 61,
      },
      perVector: { jsBytes: 151, accountedJsBytes: 256, accountedBytes: 2378 },
      faqRowsMB: 3.5,
      stormSeconds: 12.3,
      statuses: { 200: 1000 },
      workerdRssMB: { before: 300, peakDuringStorm: 400, after: 350 },
    };
    const page = renderReports({ memory })["memory.md"]!;
    expect(page).toContain("| **all caches** | **76.0 MB** of the isolate's 128.0 MB |");
    expect(page).toContain("| after one request of each kind (code and tables) | 20.2 MB | 19.2 MB | 1.0 MB |");
    expect(page).toContain("151 B of JS heap (the budget counts 256 B, and 2,378 B with its WebAssembly row)");
    expect(page).toContain(
      "the heap held 61.0 MB after a full GC at its highest sample (~20 KB a request in flight), and 41.0 MB after them.",
    );
    expect(page).toContain("Statuses: 1000 × 200.");
  });

  it("projects each route's latency for every user, with the per-call latencies and their sources", () => {
    const latency = {
      at: "2026-11-27T06:20:00.000Z",
      users: { near: "a user near the primary", far: "a user far from it" },
      latencyMs: { near: { d1r: 5, ai: 40 }, far: { d1r: 150, ai: 40 } },
      sources: ["d1r: an assumption"],
      rows: [
        {
          route: "FAQ search",
          state: "warm",
          steps: { d1r: 2 },
          seq: 1,
          localMs: 3.2,
          projected: { near: { totalMs: 8.2 }, far: { totalMs: 153.2 } },
        },
      ],
    };
    const page = renderReports({ latency })["latency.md"]!;
    expect(page).toContain("| FAQ search | warm | d1r 2 | 1 | 3 ms | 8 ms | 153 ms |");
    expect(page).toContain("| d1r | 5 ms | 150 ms |");
    expect(page).toContain("- d1r: an assumption");
  });

  it("prints each item's bytes, what fills 10 GB, the tenant projections and the write rates", () => {
    const kind = (k: string, unit: string, d1Bytes: number, d1Bytes1024: number, durableObjectBytes = 0, durableObjectBytes1024 = 0) => ({
      kind: k,
      unit,
      n: 1000,
      meanTextChars: 60,
      d1Bytes,
      d1Bytes1024,
      durableObjectBytes,
      durableObjectBytes1024,
      tables: d1Bytes
        ? [
            { table: "vectors", bytes: d1Bytes * 0.9 },
            { table: "memories", bytes: d1Bytes * 0.1 },
          ]
        : [],
    });
    const capacity = {
      at: "2026-12-07T01:00:00.000Z",
      limitBytes: 10e9,
      localDimensions: 512,
      productionDimensions: 1024,
      kinds: [
        kind("memory", "memory", 5000, 10000),
        kind("faq", "FAQ with 3 variants", 20000, 40000),
        kind("ticket", "ticket", 2000, 2000),
        kind("show", "show question", 0, 0, 3000, 5000),
      ],
      writes: [{ path: "POST /v1/memories", writes: 1000, writers: 8, seconds: 10, perSecond: 100, d1CallsPerWrite: 5 }],
    };
    const files = renderReports({ capacity });
    const page = files["capacity.md"]!;
    expect(page).toContain("| memory | 1,000 | 60 | 5,000 B | 10,000 B | 4,500 B | – | 1.0 M |");
    expect(page).toContain("| show question | 1,000 | 60 | 0 B | 0 B | 0 B | 3,000 B / 5,000 B | – (not in D1) |");
    expect(page).toContain(
      "| live show producer | 200 shows of 60 questions | none measurable: its questions are in Durable Objects | not bound by D1 |",
    );
    // 50,000 memories of 10,000 B: 500 MB a tenant, 20 in 10 GB; 2,000 FAQs + 20,000 tickets: 120 MB, 83.
    expect(page).toContain("| assistant team (20 people) | 2,500 remembered prompts a person | 476.8 MiB | 20 |");
    expect(page).toContain("| support desk | 2,000 FAQs, 20,000 resolved tickets | 114.4 MiB | 83 |");
    expect(page).toContain("| `POST /v1/memories` | 1,000 | 100 | 5 |");
    expect(files["capacity-bytes.svg"]).toContain("<svg");
  });

  it("writes only the reports whose results this run has: another run's figures and charts stay", () => {
    const results = mkdtempSync(join(tmpdir(), "results-"));
    const out = mkdtempSync(join(tmpdir(), "reports-"));
    writeFileSync(join(out, "speed.md"), "speed figures of another run\n");
    writeFileSync(join(out, "speed-faq-search.svg"), "<svg/>");
    writeFileSync(join(out, "quality-old-chart.svg"), "<svg/>");
    writeFileSync(join(results, "eval.json"), JSON.stringify(evalResult));
    const { written, left } = writeReports({ resultsDir: results, outDir: out });
    expect(written.map((f: string) => f.split("/").pop())).toContain("quality.md");
    expect(left).toEqual([
      expect.stringMatching(/^speed \(not measured in this run: vector-scan/),
      "latency (not measured in this run: latency)",
      "memory (not measured in this run: memory)",
      "capacity (not measured in this run: capacity)",
      "placement (not measured in this run: placement-sim)",
    ]);
    expect(readFileSync(join(out, "speed.md"), "utf8")).toBe("speed figures of another run\n");
    expect(readdirSync(out)).toContain("speed-faq-search.svg");
    expect(readdirSync(out)).not.toContain("quality-old-chart.svg");
  });
});
