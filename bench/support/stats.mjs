// Percentiles and a fixed-width table for the benchmarks' output.
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export function percentiles(samples) {
  const s = [...samples].sort((a, b) => a - b);
  const q = (p) => (s.length === 0 ? Number.NaN : s[Math.min(s.length - 1, Math.ceil(p * s.length) - 1)]);
  return { n: s.length, p50: q(0.5), p95: q(0.95), p99: q(0.99), max: s[s.length - 1] };
}

export const ms = (x) => (Number.isFinite(x) ? `${x.toFixed(2)} ms` : "–");

/** Times `fn` once, in milliseconds. */
export async function timed(fn) {
  const start = performance.now();
  const value = await fn();
  return { value, ms: performance.now() - start };
}

/** Writes a benchmark's figures to results/<name>.json (git-ignored). */
export function saveResults(name, data) {
  const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
  const file = join(root, "results", `${name}.json`);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify({ name, at: new Date().toISOString(), machine: machine(), ...data }, null, 2)}\n`);
  return file;
}

function machine() {
  return { node: process.version, platform: process.platform, cpus: (globalThis.navigator?.hardwareConcurrency ?? 0) || undefined };
}

/** A text progress bar on stderr for long seeding steps. */
export function progress(label, total) {
  let last = -1;
  return (done) => {
    const pct = Math.floor((done / total) * 100);
    if (pct === last && done !== total) return;
    last = pct;
    const width = 30;
    const filled = Math.round((done / total) * width);
    process.stderr.write(`\r  ${label} [${"#".repeat(filled)}${".".repeat(width - filled)}] ${done}/${total}${done === total ? "\n" : ""}`);
  };
}
