// `npm run report`: renders docs/reports/quality.md and docs/reports/speed.md, with their SVG
// charts beside them, from the JSON that `npm run eval` and `npm run bench` saved under results/
// (both call it at their end). A result that is missing gives its section a "not measured" line.
// The rendering itself is pure (bench/support/report.mjs); this reads and writes the files.
//
//   npm run report                                    results/ → docs/reports/
//   node scripts/report.mjs --results DIR --out DIR   other folders
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { COMMANDS, renderReports } from "../bench/support/report.mjs";

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

/** Writes every report file into `outDir` and removes charts of an earlier render that this one did not draw; returns the paths written. */
export function writeReports({ resultsDir = join(ROOT, "results"), outDir = join(ROOT, "docs", "reports") } = {}) {
  const files = renderReports(readResults(resultsDir));
  mkdirSync(outDir, { recursive: true });
  for (const stale of readdirSync(outDir).filter((f) => f.endsWith(".svg") && !(f in files))) rmSync(join(outDir, stale));
  return Object.entries(files).map(([name, content]) => {
    const file = join(outDir, name);
    writeFileSync(file, content.endsWith("\n") ? content : `${content}\n`);
    return relative(process.cwd(), file);
  });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const args = process.argv.slice(2);
  const option = (name) => {
    const i = args.indexOf(name);
    return i >= 0 ? resolve(args[i + 1]) : undefined;
  };
  for (const file of writeReports({ resultsDir: option("--results"), outDir: option("--out") })) console.log(`wrote ${file}`);
}
