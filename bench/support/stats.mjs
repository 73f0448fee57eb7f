// Percentiles and a fixed-width table for the benchmarks' output.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { availableParallelism, cpus, loadavg, totalmem } from "node:os";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
/**
 * `npm run bench -- --smoke` (a CI gate): every benchmark once at a tiny size, so one that breaks
 * fails CI; its figures mean nothing and go to results/smoke/, apart from the real ones.
 */
export const SMOKE = process.env.BENCH_SMOKE === "1";

/** A benchmark's size: the environment's `name` if set, else `smoke` under --smoke, else `full`. */
export function benchSize(name, full, smoke) {
  const set = process.env[name];
  return set !== undefined && set.trim() !== "" ? Number(set) : SMOKE ? smoke : full;
}

/** The load average when this process started: what else the machine was running. */
const LOAD_AT_START = loadavg();

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

/**
 * Writes a benchmark's figures to results/<name>.json (git-ignored), stamped with when, the
 * machine, the commit and the command that made them (what `npm run report` prints in its headers).
 */
export function saveResults(name, data) {
  const file = join(ROOT, "results", ...(SMOKE ? ["smoke"] : []), `${name}.json`);
  mkdirSync(dirname(file), { recursive: true });
  const stamp = {
    name,
    at: new Date().toISOString(),
    seconds: Math.round(process.uptime()),
    command: command(),
    machine: machine(),
    commit: commit(),
  };
  writeFileSync(file, `${JSON.stringify({ ...stamp, ...data }, null, 2)}\n`);
  return file;
}

/** Cores, CPU model, memory, Node, and the load average (1, 5, 15 min) when the process started and when the figures were saved. */
export function machine() {
  let model = cpus()[0]?.model?.trim();
  if (existsSync("/proc/cpuinfo")) {
    const line = readFileSync("/proc/cpuinfo", "utf8")
      .split("\n")
      .find((l) => /^model name\s*:/.test(l));
    if (line) model = line.split(":").slice(1).join(":").trim();
  }
  return {
    cores: availableParallelism(),
    cpu: model || "unknown",
    memoryGB: Math.round((totalmem() / 2 ** 30) * 10) / 10,
    node: process.version,
    platform: `${process.platform}-${process.arch}`,
    loadAverageAtStart: LOAD_AT_START.map((x) => Math.round(x * 100) / 100),
    loadAverage: loadavg().map((x) => Math.round(x * 100) / 100),
  };
}

/**
 * `git rev-parse --short HEAD`, plus "+dirty" when the tree has changes (tracked or untracked
 * files, the reports under docs/reports/ aside: they are this output, not its input). Read-only:
 * `--no-optional-locks` keeps `git status` from refreshing the index under other writers.
 */
export function commit() {
  const git = (...args) =>
    execFileSync("git", ["--no-optional-locks", ...args], { cwd: ROOT, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] });
  try {
    const head = git("rev-parse", "--short", "HEAD").trim();
    const dirty = git("status", "--porcelain", "--", ".", ":(exclude)docs/reports").trim() !== "";
    return `${head}${dirty ? "+dirty" : ""}`;
  } catch {
    return "unknown";
  }
}

/**
 * How this run was started: `npm run bench -- …` (bench/run.mjs passes it down), `npm run
 * <script> -- …` or `node bench/<file> …`, with the BENCH_* variables set.
 */
function command() {
  const vars = Object.entries(process.env)
    .filter(([k]) => k.startsWith("BENCH_") && k !== "BENCH_COMMAND")
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([k, v]) => `${k}=${v} `)
    .join("");
  const args = process.argv.slice(2).join(" ");
  const npm = process.env.npm_lifecycle_event;
  const own = npm ? `npm run ${npm}${args ? ` -- ${args}` : ""}` : `node ${relative(ROOT, process.argv[1] ?? "")}${args ? ` ${args}` : ""}`;
  return `${vars}${process.env.BENCH_COMMAND ?? own}`;
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
