// `npm run report`: renders docs/reports/quality.md and docs/reports/speed.md, with their SVG
// charts beside them, from the JSON that `npm run eval` and `npm run bench` saved under results/
// (both call it at their end). A report is written only when every result it reads is there: a
// run never turns another run's figures into "not measured".
// The rendering itself is pure (bench/support/report.mjs); this reads and writes the files.
//
//   npm run report                                    results/ → docs/reports/
//   node scripts/report.mjs --results DIR --out DIR   other folders
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { COMMANDS, renderReportGroups } from "../bench/support/report.mjs";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");

/** results/<name>.json for every result the reports read, parsed (a file that does not parse is reported and left out). */
export function readResults(resultsDir = join(ROOT, "results")) {
  const results = {};
  for (const name of Object.keys(COMMANDS)) {
    const file = join(resultsDir, `${name}.json`);
    if (!existsSync(file)) continue;
    try {
      results[name] = JSON.parse(readFileSync(file, "utf8"));
    } catch (error) {
      console.warn(`report: ${relative(ROOT, file)} does not parse (${error.message}); its section says "not measured"`);
    }
  }
  return results;
}

/**
 * Writes the reports whose every result is in `resultsDir`, with their charts (removing that
 * report's charts an earlier render drew and this one did not); a report missing a result is left
 * as it is, so a run never replaces another run's figures with "not measured". Returns the paths
 * written and the reports left alone.
 */
export function writeReports({ resultsDir = join(ROOT, "results"), outDir = join(ROOT, "docs", "reports") } = {}) {
  const results = readResults(resultsDir);
  mkdirSync(outDir, { recursive: true });
  const written = [];
  const left = [];
  for (const group of renderReportGroups(results)) {
    const missing = group.inputs.filter((name) => !(name in results));
    if (missing.length > 0) {
      left.push(`${group.name} (not measured in this run: ${missing.join(", ")})`);
      continue;
    }
    const prefix = `${group.name}-`;
    for (const stale of readdirSync(outDir).filter((f) => f.startsWith(prefix) && f.endsWith(".svg") && !(f in group.files)))
      rmSync(join(outDir, stale));
    for (const [name, content] of Object.entries(group.files)) {
      const file = join(outDir, name);
      writeFileSync(file, content.endsWith("\n") ? content : `${content}\n`);
      written.push(relative(process.cwd(), file));
    }
  }
  return { written, left };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const args = process.argv.slice(2);
  const option = (name) => {
    const i = args.indexOf(name);
    return i >= 0 ? resolve(args[i + 1]) : undefined;
  };
  const { written, left } = writeReports({ resultsDir: option("--results"), outDir: option("--out") });
  for (const file of written) console.log(`wrote ${file}`);
  for (const report of left) console.log(`left as it is: ${report}`);
}
