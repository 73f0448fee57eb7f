// A small SVG of the benchmark figures (p50 and p95 bars, log scale), written to results/summary.svg.
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** Rows to draw: [label, p50 ms, p95 ms] from each results/*.json that has percentile figures. */
function rows(resultsDir) {
  const out = [];
  for (const file of readdirSync(resultsDir)
    .filter((f) => f.endsWith(".json"))
    .sort()) {
    const data = JSON.parse(readFileSync(join(resultsDir, file), "utf8"));
    const walk = (value, path) => {
      if (!value || typeof value !== "object") return;
      if (typeof value.p50 === "number" && typeof value.p95 === "number") {
        const scale = data.unit === "µs" ? 0.001 : 1;
        out.push([`${data.name} ${path}`.trim(), value.p50 * scale, value.p95 * scale]);
        return;
      }
      for (const [key, inner] of Object.entries(value)) if (key !== "machine") walk(inner, path ? `${path}.${key}` : key);
    };
    walk(data, "");
  }
  return out;
}

export function writeChart(resultsDir) {
  if (!existsSync(resultsDir)) return null;
  const data = rows(resultsDir);
  if (data.length === 0) return null;
  const width = 900;
  const left = 330;
  const barHeight = 14;
  const gap = 10;
  const max = Math.max(...data.map((d) => d[2]));
  const min = Math.min(...data.map((d) => d[1]).filter((x) => x > 0), 0.01);
  const x = (v) =>
    left + ((Math.log10(Math.max(v, min)) - Math.log10(min)) / (Math.log10(max) - Math.log10(min) || 1)) * (width - left - 90);
  const height = 40 + data.length * (2 * barHeight + gap);
  const bars = data
    .map(([label, p50, p95], i) => {
      const y = 30 + i * (2 * barHeight + gap);
      return [
        `<text x="${left - 8}" y="${y + barHeight + 4}" text-anchor="end" font-size="12">${label.replace(/&/g, "&amp;").replace(/</g, "&lt;")}</text>`,
        `<rect x="${left}" y="${y}" width="${x(p50) - left}" height="${barHeight - 2}" fill="#4c78a8"/>`,
        `<text x="${x(p50) + 4}" y="${y + 11}" font-size="11">p50 ${p50.toFixed(p50 < 1 ? 3 : 1)} ms</text>`,
        `<rect x="${left}" y="${y + barHeight}" width="${x(p95) - left}" height="${barHeight - 2}" fill="#f58518"/>`,
        `<text x="${x(p95) + 4}" y="${y + barHeight + 11}" font-size="11">p95 ${p95.toFixed(p95 < 1 ? 3 : 1)} ms</text>`,
      ].join("");
    })
    .join("\n");
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" font-family="sans-serif">
<text x="10" y="18" font-size="14" font-weight="bold">Recall benchmarks (latency, log scale)</text>
${bars}
</svg>
`;
  const file = join(resultsDir, "summary.svg");
  writeFileSync(file, svg);
  return file;
}
