// `npm start`: the whole local stack from a fresh clone, offline.
//   1. installs dependencies if node_modules is missing
//   2. applies the D1 migrations to the local database (.wrangler/state) and copies the /docs
//      page's files into the static-assets folder
//   3. starts the local embedder (USE-lite from npm) on 127.0.0.1:EMBEDDER_PORT
//   4. starts `wrangler dev --local --env local` on PORT and waits until /healthz answers
//   5. seeds a small demo data set (once: scripts/demo-seed.mjs), prints the URL and the dev key
// PORT, EMBEDDER_PORT, RECALL_DEV_API_KEY and RECALL_STATE_DIR (Miniflare's state folder) may be set.
// `npm start -- --postgres` (or RECALL_POSTGRES=1) keeps the FAQ knowledge base in a local Postgres
// (PGlite + pgvector in .wrangler/pglite behind a WebSocket proxy, migrations/pg applied): FAQ_STORE=postgres.
// Ctrl-C stops everything. When the stack cannot start (its port is taken, wrangler dev exits, /healthz never
// answers) it says so and exits non-zero, never printing the banner.
// Quiet by default: the migrations' tables, wrangler's warnings and its per-request lines go to
// .wrangler/start.log (shown when something fails); `npm start -- --verbose` prints them here.
import { spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { failureExitCode, portInUse, portInUseLine } from "./support/start-checks.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const PORT = Number(process.env.PORT ?? 8787);
const EMBEDDER_PORT = Number(process.env.EMBEDDER_PORT ?? 8788);
const DEV_KEY = process.env.RECALL_DEV_API_KEY ?? "rk_dev_local_only_change_me";
const HEALTH_TIMEOUT_MS = 90_000;
// Where Miniflare keeps D1/KV/DO state (default .wrangler/state); the browser suite uses a fresh one.
const STATE_DIR = process.env.RECALL_STATE_DIR;
const persist = STATE_DIR ? ["--persist-to", STATE_DIR] : [];
const started = Date.now();
const npx = process.platform === "win32" ? "npx.cmd" : "npx";
const POSTGRES = process.argv.includes("--postgres") || process.env.RECALL_POSTGRES === "1";

const log = (message) => console.log(`[recall] ${message}`);

const VERBOSE = process.argv.includes("--verbose") || process.env.RECALL_VERBOSE === "1";
const OUTPUT_LOG = join(STATE_DIR ?? join(root, ".wrangler"), "start.log");
/** Where the tools' own output goes: here with --verbose, else the log file (emptied on each start). */
function toolOutput() {
  if (VERBOSE) return "inherit";
  mkdirSync(dirname(OUTPUT_LOG), { recursive: true });
  return openSync(OUTPUT_LOG, "a");
}
/** The log file's last lines, for a failure the quiet mode would otherwise hide. */
function showOutputTail(lines = 40) {
  if (VERBOSE || !existsSync(OUTPUT_LOG)) return;
  const tail = readFileSync(OUTPUT_LOG, "utf8").trimEnd().split("\n").slice(-lines);
  console.error(`[recall] the last lines of ${OUTPUT_LOG}:\n${tail.join("\n")}`);
}

// Offline, Miniflare's fetch of its `request.cf` template (https://workers.cloudflare.com/cf.json)
// printed a "getaddrinfo ENOTFOUND workers.cloudflare.com" stack on every start: it takes its
// built-in placeholder instead (the Worker reads no `cf` field). Wrangler's telemetry is off too;
// its update check (registry.npmjs.org) fails silently offline and has no switch. A caller's own
// setting of either variable wins.
const WRANGLER_ENV = { CLOUDFLARE_CF_FETCH_ENABLED: "false", WRANGLER_SEND_METRICS: "false", ...process.env };

// First, before installing or migrating anything: a taken port (another `npm start`?) would only
// surface as workerd's fatal error deep in wrangler's output.
if (await portInUse(PORT)) {
  console.error(portInUseLine(PORT));
  process.exit(1);
}

function run(command, args, what) {
  log(`${what}…`);
  const output = toolOutput();
  const result = spawnSync(command, args, { cwd: root, stdio: ["ignore", output, output], env: { ...WRANGLER_ENV, CI: "1" } });
  if (typeof output === "number") closeSync(output);
  if (result.status !== 0) {
    console.error(`[recall] ${what} failed (exit ${result.status}).`);
    showOutputTail();
    process.exit(result.status ?? 1);
  }
}

if (!VERBOSE && existsSync(OUTPUT_LOG)) writeFileSync(OUTPUT_LOG, "");
if (!existsSync(join(root, "node_modules", ".bin", "wrangler"))) {
  run("npm", [existsSync(join(root, "package-lock.json")) ? "ci" : "install"], "installing dependencies");
}
// Every database gets every migration: the home one (DB) and the one tenants can be placed in (DB_1).
for (const binding of ["DB", "DB_1"]) {
  run(
    npx,
    ["wrangler", "d1", "migrations", "apply", binding, "--local", "--env", "local", ...persist],
    `applying D1 migrations to ${binding} locally`,
  );
}
const { copyReferenceAssets } = await import("./reference-assets.mjs");
copyReferenceAssets();

const { startLocalEmbedder, LOCAL_MODEL_ID } = await import("./local-embedder.mjs");
log(`starting the local embedder (${LOCAL_MODEL_ID})…`);
const embedder = await startLocalEmbedder({ port: EMBEDDER_PORT }).catch(async (error) => {
  if (error?.code !== "EADDRINUSE") throw error;
  log(`port ${EMBEDDER_PORT} is busy; the embedder takes a free port instead`);
  return startLocalEmbedder({ port: 0 });
});

let postgresVars = [];
let postgres = null;
if (POSTGRES) {
  const { startLocalPostgres } = await import("./local-postgres.mjs");
  const { migratePostgres } = await import("./pg-migrate.mjs");
  log("starting the local Postgres (PGlite + pgvector) and applying migrations/pg…");
  postgres = await startLocalPostgres({ dataDir: join(STATE_DIR ?? join(root, ".wrangler"), "pglite") });
  const wsProxy = `127.0.0.1:${postgres.proxyPort}`;
  await migratePostgres(postgres.databaseUrl, { wsProxy });
  postgresVars = ["--var", "FAQ_STORE:postgres", "--var", `DATABASE_URL:${postgres.databaseUrl}`, "--var", `DATABASE_WS_PROXY:${wsProxy}`];
}

ensureLocalSecrets(join(root, ".dev.vars.local"));
log(VERBOSE ? "starting wrangler dev…" : `starting wrangler dev (its output: ${OUTPUT_LOG}; npm start -- --verbose shows it here)…`);
const wranglerOutput = toolOutput();

const wrangler = spawn(
  npx,
  [
    "wrangler",
    "dev",
    "--local",
    "--env",
    "local",
    "--ip",
    "127.0.0.1",
    "--port",
    String(PORT),
    "--test-scheduled",
    "--show-interactive-dev-session=false",
    ...persist,
    "--var",
    `EMBEDDER_URL:${embedder.url}`,
    "--var",
    `RECALL_DEV_API_KEY:${DEV_KEY}`,
    ...postgresVars,
  ],
  { cwd: root, stdio: ["ignore", wranglerOutput, wranglerOutput], detached: true, env: WRANGLER_ENV },
);

let stopping = false;
function stop(code = 0) {
  if (stopping) return;
  stopping = true;
  // The code holds even if the process ends on its own before the timer below (it is unref'd).
  process.exitCode = code;
  log("stopping…");
  try {
    process.kill(-wrangler.pid, "SIGTERM");
  } catch {}
  embedder.server.close();
  postgres?.stop().catch(() => {});
  setTimeout(() => process.exit(code), 500).unref();
}
process.on("SIGINT", () => stop(0));
process.on("SIGTERM", () => stop(0));
wrangler.on("exit", (code, signal) => {
  if (!stopping) {
    console.error(`[recall] wrangler dev exited (${code ?? signal}).`);
    showOutputTail();
    // Exit 0 here told a script waiting on `npm start` that all was well.
    stop(failureExitCode(code));
  }
});

const base = `http://127.0.0.1:${PORT}`;
// Once stopping (wrangler exited, Ctrl-C), nothing is seeded and no banner claims the service runs.
if (await waitForHealth()) await ready();

async function ready() {
  const healthyAfter = ((Date.now() - started) / 1000).toFixed(1);
  const { seedDemo } = await import("./demo-seed.mjs");
  await seedDemo({ base, key: DEV_KEY, log }).catch((error) => log(`demo data not seeded: ${error.message}`));
  if (stopping) return;

  console.log(`
  Recall is running at ${base}   (healthy ${healthyAfter}s after start)${POSTGRES ? "\n  FAQ knowledge base: local Postgres (FAQ_STORE=postgres)" : ""}
  Dev API key (admin of the local dev tenant): ${DEV_KEY}
  Screens: ${base}/ui   (sign in with the key above)

  API reference: ${base}/docs   ·   OpenAPI 3.1 document: ${base}/openapi.json

  curl ${base}/healthz
  curl -s ${base}/v1/memories/search -H 'authorization: Bearer ${DEV_KEY}' \\
       -H 'content-type: application/json' -d '{"scope":"demo","query":"ship the app to Vercel"}'

  Cron: curl '${base}/__scheduled?cron=*/5+*+*+*+*'   ·   Ctrl-C stops everything.
`);
}

/** True once /healthz answers; false when stopping first or after HEALTH_TIMEOUT_MS (then it stops, exit 1). */
async function waitForHealth() {
  const deadline = Date.now() + HEALTH_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (stopping) return false;
    try {
      const response = await fetch(`${base}/healthz`);
      if (response.ok) return !stopping;
    } catch {}
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  console.error(`[recall] ${base}/healthz did not answer within ${HEALTH_TIMEOUT_MS / 1000}s.`);
  showOutputTail();
  stop(1);
  return false;
}

/**
 * The local stack's secrets, in .dev.vars.local (git-ignored): wrangler gives them to the Worker
 * as secrets and prints "(hidden)", never their values. Random on first start, then kept, so /ui
 * sessions and sealed webhook secrets survive a restart.
 */
function ensureLocalSecrets(file) {
  const lines = existsSync(file) ? readFileSync(file, "utf8").split("\n").filter(Boolean) : [];
  const has = (name) => lines.some((line) => line.startsWith(`${name}=`));
  const added = [
    ...(has("UI_SESSION_SECRET") ? [] : [`UI_SESSION_SECRET=${randomBytes(32).toString("hex")}`]),
    ...(has("SECRETS_KEK") ? [] : [`SECRETS_KEK=local1:${randomBytes(32).toString("base64")}`]),
  ];
  if (added.length > 0) writeFileSync(file, [...lines, ...added].join("\n") + "\n", { mode: 0o600 });
}
