// `npm run bench`: every benchmark in bench/*.bench.mjs, one after another, each in its own
// process (so one's memory and JIT state do not colour the next). `npm run bench -- context`
// runs only those whose file name contains "context". Figures print as they come and are saved
// as JSON under results/ (git-ignored); at the end docs/reports/speed.md and its charts are
// rendered again from them (scripts/report.mjs, `npm run report` alone).
//
// `npm run bench -- --smoke` (a CI gate) runs every benchmark once at a tiny size (seconds each, a
// few minutes in all; bench/support/stats.mjs, benchSize): a benchmark that breaks fails it. Its
// figures mean nothing: they go to results/smoke/, and no report is rendered from them.
import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { writeChart } from "./support/chart.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const smoke = process.argv.includes("--smoke");
const only = process.argv.slice(2).filter((arg) => arg !== "--smoke");
const benches = readdirSync(here)
  .filter((f) => f.endsWith(".bench.mjs") && (only.length === 0 || only.some((o) => f.includes(o))))
  .sort();
if (benches.length === 0) {
  console.error(`no benchmark matches ${only.join(", ")}`);
  process.exit(2);
}
const started = Date.now();
let failed = 0;
for (const file of benches) {
  console.log(`\n=== ${file}`);
  // The command each bench's JSON records (bench/support/stats.mjs), as the reports print it.
  const command = `npm run bench${only.length > 0 ? ` -- ${only.join(" ")}` : ""}`;
  const env = { ...process.env, BENCH_COMMAND: command, ...(smoke ? { BENCH_SMOKE: "1" } : {}) };
  const result = spawnSync(process.execPath, [join(here, file)], { stdio: "inherit", env });
  if (result.status !== 0) {
    failed++;
    console.error(`${file} failed (exit ${result.status})`);
  }
}
if (smoke) {
  console.log(
    `\n${benches.length - failed}/${benches.length} benchmarks ran at a tiny size in ${((Date.now() - started) / 1000).toFixed(0)} s (--smoke: figures ignored)`,
  );
  process.exit(failed > 0 ? 1 : 0);
}
const chart = writeChart(join(here, "..", "results"));
console.log(
  `\n${benches.length - failed}/${benches.length} benchmarks ran in ${((Date.now() - started) / 1000).toFixed(0)} s; figures in results/*.json${chart ? `, chart in ${chart}` : ""}`,
);
try {
  const { writeReports } = await import("../scripts/report.mjs");
  const { written, left } = writeReports();
  for (const file of written) console.log(`report: ${file}`);
  for (const report of left) console.log(`report left as it is: ${report}`);
} catch (error) {
  console.warn(`reports not refreshed (npm run report): ${error.message}`);
}
process.exit(failed > 0 ? 1 : 0);
