/**
 * `recall calibrate`: fit the service's similarity scale on the tenant's own labels (an admin key).
 * With --pairs (once or more), first uploads JSONL files of labelled pairs (`{a, b, label}` per line) in chunks;
 * then calls POST /v1/admin/calibration/fit until the fit is done, with a progress line, and prints
 * what was stored or why it was refused (exit 1).
 */
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import type { RecallConfig } from "./config";
import { callApi } from "./post";

const CALL_TIMEOUT_MS = 60_000;

const LABELS = new Set(["paraphrase", "related", "unrelated", "same", "different"]);
/** The route's limit per call. */
const PAIRS_PER_UPLOAD = 1000;
const MAX_CALLS = 500;

interface Pair {
  a: string;
  b: string;
  label: string;
}

/** The pairs of a JSONL file; a bad line is an error naming its number. */
export function readPairs(text: string, file: string): Pair[] {
  const pairs: Pair[] = [];
  for (const [i, line] of text.split("\n").entries()) {
    if (line.trim() === "") continue;
    let p: Partial<Pair>;
    try {
      p = JSON.parse(line) as Partial<Pair>;
    } catch {
      throw new Error(`${file}:${i + 1}: not JSON`);
    }
    if (typeof p.a !== "string" || typeof p.b !== "string" || typeof p.label !== "string" || !LABELS.has(p.label)) {
      throw new Error(`${file}:${i + 1}: expected {"a": "…", "b": "…", "label": "paraphrase|related|unrelated|same|different"}`);
    }
    pairs.push({ a: p.a, b: p.b, label: p.label });
  }
  return pairs;
}

export async function calibrate(args: string[], config: RecallConfig): Promise<boolean> {
  const { values } = parseArgs({
    args,
    options: { pairs: { type: "string", multiple: true }, sources: { type: "string" }, deployment: { type: "boolean" } },
  });
  const call = (path: string, body: unknown) => callApi(config, path, body, CALL_TIMEOUT_MS);

  // Every file is read before anything is sent: a bad line in the second uploads nothing.
  const files = (values.pairs ?? []).map((file) => ({ file, pairs: readPairs(readFileSync(file, "utf8"), file) }));
  for (const { file, pairs } of files) {
    let total = 0;
    for (let i = 0; i < pairs.length; i += PAIRS_PER_UPLOAD) {
      total = (await call("/v1/admin/calibration/pairs", { pairs: pairs.slice(i, i + PAIRS_PER_UPLOAD) })).total as number;
    }
    console.log(`uploaded ${pairs.length} pairs from ${file} (${total} uploaded pairs in all)`);
  }

  const body = {
    ...(values.sources ? { sources: values.sources.split(",").map((s) => s.trim()) } : {}),
    ...(values.deployment ? { scope: "deployment" } : {}),
  };
  type Fit = {
    id: string;
    status: string;
    phase: string;
    reason: string | null;
    version: number | null;
    progress: { pairs: number; measured: number };
    report: Report | null;
  };
  let fit: Fit | null = null;
  for (let n = 0; n < MAX_CALLS; n++) {
    fit = (await call("/v1/admin/calibration/fit", body)) as unknown as Fit;
    if (process.stderr.isTTY) process.stderr.write(`\r${fit.phase}: ${fit.progress.measured}/${fit.progress.pairs} pairs measured `);
    if (fit.status !== "running") break;
  }
  if (process.stderr.isTTY) process.stderr.write("\n");
  if (!fit || fit.status === "running") throw new Error(`the fit is still running after ${MAX_CALLS} calls; the cron goes on with it`);
  if (fit.status !== "stored") {
    console.log(`${fit.status}: ${fit.reason}`);
    return false;
  }
  console.log(`stored version ${fit.version} (fit ${fit.id})`);
  if (fit.report) console.log(summary(fit.report));
  return true;
}

interface Rate {
  value: number;
  interval: [number, number];
}
interface Report {
  pairs: number;
  bySource: Record<string, Record<string, number>>;
  auc?: Rate;
  agreement?: { baseline: { macro: number }; crossValidated: { macro: number } };
  decision?: { sameMin: number; sharedMin: number; crossValidated: { precision: Rate; recall: Rate } };
}

const BAND_ORDER = ["paraphrase", "related", "unrelated"];
const rate = (r: Rate) => `${r.value} (95 % ${r.interval[0]}–${r.interval[1]})`;

function summary(report: Report): string {
  const sources = Object.entries(report.bySource)
    .map(
      ([source, labels]) =>
        `${source}: ${BAND_ORDER.filter((l) => labels[l])
          .map((l) => `${labels[l]} ${l}`)
          .join(", ")}`,
    )
    .join("; ");
  const lines = [`pairs:     ${report.pairs} (${sources})`];
  if (report.auc) lines.push(`AUC:       ${rate(report.auc)}`);
  if (report.agreement)
    lines.push(`agreement: ${report.agreement.crossValidated.macro} held out (the scale it replaces: ${report.agreement.baseline.macro})`);
  if (report.decision)
    lines.push(
      `same:      score ≥ ${report.decision.sameMin} and shared words ≥ ${report.decision.sharedMin}: precision ${rate(report.decision.crossValidated.precision)}, recall ${rate(report.decision.crossValidated.recall)}`,
    );
  return lines.join("\n");
}
