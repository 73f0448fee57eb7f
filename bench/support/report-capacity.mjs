// docs/reports/capacity.md and its chart from results/capacity.json (bench/capacity.bench.mjs):
// what each kind of item costs in one D1 database, how many fit in D1's 10 GB, and the write rate
// of the write paths. Pure, like report.mjs.
import { barChart } from "./svg.mjs";

const GB = 1000 ** 3;
const int = (x) => (Number.isFinite(x) ? Math.round(x).toLocaleString("en") : "–");
const millions = (x) => (!Number.isFinite(x) || x <= 0 ? "–" : x >= 1e6 ? `${(x / 1e6).toFixed(1)} M` : `${int(x / 1000)} k`);

/**
 * Tenants as the projection counts them: what one holds after a year of use. These are the
 * report's assumptions, stated here and printed with the figures, not measurements; an operator
 * puts their own counts into the same sums (docs/guides/scaling.md).
 */
export const TENANT_PROFILES = [
  { name: "assistant team (20 people)", items: { memory: 20 * 2500 }, note: "2,500 remembered prompts a person" },
  { name: "support desk", items: { faq: 2000, ticket: 20000 }, note: "2,000 FAQs, 20,000 resolved tickets" },
  { name: "live show producer", items: { show: 200 * 60 }, note: "200 shows of 60 questions" },
];

/** Bytes of a tenant profile in D1 at the given width ("d1Bytes" 512-d, "d1Bytes1024"). */
export function profileBytes(kinds, profile, field) {
  return Object.entries(profile.items).reduce((sum, [kind, n]) => sum + n * (kinds.find((k) => k.kind === kind)?.[field] ?? Number.NaN), 0);
}

/** The page and its chart, or its "not measured" line. */
export function renderCapacity(r, { generated, notMeasured, when, machineLine }) {
  const md = ["# Capacity: what one D1 database holds", "", generated, ""];
  if (!r) return { markdown: [...md, notMeasured("capacity")].join("\n"), charts: {} };
  const limit = r.limitBytes ?? 10 * GB;
  const kinds = r.kinds ?? [];
  md.push(
    `Made by \`${r.command ?? "npm run bench -- capacity"}\` on ${when(r.at)}, at commit \`${r.commit ?? "not recorded"}\`, on ${machineLine(r.machine)}.`,
    "",
    `Each kind is written through the API into a fresh local D1 (Miniflare, the migrations applied), and the database's pages in use are counted before and after, in all and table by table (bench/support/sqlite-pages.mjs): rows, indexes, FTS5 and the exact index's vectors, everything D1 counts against its ${int(limit / GB)} GB. The local model writes ${r.localDimensions}-d vectors; production's bge-m3 writes ${r.productionDimensions}-d, measured on the same database with every stored vector widened. Production keeps every vector in D1 under VECTOR_INDEX=auto too (the exact index is the truth; Vectorize is a second copy for large collections: src/adapters/vectors/auto.ts), so the ${r.productionDimensions}-d column is what a production database holds. A show question lives in its show's Durable Object (SQLite of its own, not in D1's limit).`,
    "",
    "## Bytes per item",
    "",
    `| item | n | text (characters) | D1 at ${r.localDimensions}-d | D1 at ${r.productionDimensions}-d | of which vectors (${r.localDimensions}-d) | Durable Object at ${r.localDimensions}-d / ${r.productionDimensions}-d | items in ${int(limit / GB)} GB at ${r.productionDimensions}-d |`,
    "|---|---|---|---|---|---|---|---|",
    ...kinds.map((k) => {
      const vectors = k.tables.find((t) => t.table === "vectors")?.bytes ?? 0;
      return `| ${k.unit} | ${int(k.n)} | ${int(k.meanTextChars)} | ${int(k.d1Bytes)} B | ${int(k.d1Bytes1024)} B | ${int(vectors)} B | ${k.durableObjectBytes ? `${int(k.durableObjectBytes)} B / ${int(k.durableObjectBytes1024)} B` : "–"} | ${k.d1Bytes1024 > 0 ? millions(limit / k.d1Bytes1024) : "– (not in D1)"} |`;
    }),
    "",
    "![Bytes per item in D1, at both vector widths](capacity-bytes.svg)",
    "",
    "### Table by table",
    "",
    ...kinds.flatMap((k) => [
      `- **${k.unit}**: ${
        k.tables
          .filter((t) => Math.abs(t.bytes) >= 1)
          .map((t) => `${t.table} ${int(t.bytes)} B`)
          .join(", ") || "nothing measurable in D1"
      }.`,
    ]),
    "",
    "Pages are 4 KiB and a table's rows share them, so a kind whose rows are small shows fractions of a page per item; a table that grew by less than a page over the whole run shows nothing.",
    "",
    "## Tenants per database",
    "",
    "A tenant as the projection counts it is an assumption, not a measurement: put your own counts into the same sum (docs/guides/scaling.md).",
    "",
    `| tenant | holds | D1 bytes at ${r.productionDimensions}-d | tenants in ${int(limit / GB)} GB |`,
    "|---|---|---|---|",
    ...TENANT_PROFILES.map((p) => {
      const bytes = profileBytes(kinds, p, "d1Bytes1024");
      if (bytes === 0) return `| ${p.name} | ${p.note} | none measurable: its questions are in Durable Objects | not bound by D1 |`;
      return `| ${p.name} | ${p.note} | ${Number.isFinite(bytes) ? `${(bytes / 1024 ** 2).toFixed(1)} MiB` : "–"} | ${bytes > 0 ? int(Math.floor(limit / bytes)) : "–"} |`;
    }),
    "",
    "## Write rate",
    "",
    `${r.writes?.[0]?.writers ?? "–"} callers at once, each write's embedding already in the Worker's cache (so the figure is the Worker and D1, not the model), on the local stack: the Worker, its D1 and the client share this machine's cores.`,
    "",
    "| write | writes | writes per second | D1 round trips per write (the answer's own) |",
    "|---|---|---|---|",
    ...(r.writes ?? []).map((w) => `| \`${w.path}\` | ${int(w.writes)} | ${int(w.perSecond)} | ${int(w.d1CallsPerWrite)} |`),
    "",
    "Remote D1 differs: one primary runs every write of a database one query at a time, so its ceiling is 1 s over the time a write's queries take inside the database (Cloudflare: about 1,000 queries a second at 1 ms each), not the round trips' network time, which a Worker spends waiting and other requests fill. A local write here also pays for the Worker's own work and HTTP on the same two cores, so the local rate is below what the same queries allow one remote primary.",
  );
  return { markdown: md.join("\n"), charts: { "capacity-bytes.svg": capacityChart(r) } };
}

function capacityChart(r) {
  const d1Kinds = (r.kinds ?? []).filter((k) => k.d1Bytes1024 > 0);
  return barChart({
    title: "Bytes per item in one D1 database",
    yLabel: "KiB per item",
    groups: d1Kinds.map((k) => ({
      label: k.unit,
      bars: [
        { series: "local", value: k.d1Bytes / 1024 },
        { series: "production", value: k.d1Bytes1024 / 1024 },
      ],
    })),
    series: [
      { key: "local", name: `${r.localDimensions}-d vectors (the local model)`, color: "#8fb3d9" },
      { key: "production", name: `${r.productionDimensions}-d vectors (bge-m3)`, color: "#2b6cb0" },
    ],
    valueLabels: true,
    format: (v) => v.toFixed(1),
    note: `npm run bench -- capacity, ${r.at?.slice(0, 10) ?? ""}`,
  });
}
