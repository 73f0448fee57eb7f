// What `npm run setup:cloudflare` does, apart from the process around it (scripts/setup-cloudflare.mjs):
// finds or creates every remote resource the production Worker binds (the top level of wrangler.toml)
// and the Worker secrets it needs, and returns wrangler.toml with the ids it found or created.
// Everything goes through one injected function that runs a wrangler command and returns its exit
// code and output, so the tests replay wrangler's recorded output (test/node/fixtures/wrangler/).
//
// Wrangler 4.86's commands and output formats this relies on (from its --help and its source,
// node_modules/wrangler/wrangler-dist/cli.js):
//   whoami --json                      {"loggedIn":true,"accounts":[{"name","id"}],…}; exit 1 and {"loggedIn":false} when not logged in
//   d1 list --json                     [{"uuid","name",…}]
//   d1 create <name>                   a TOML snippet with database_id = "<uuid>"
//   kv namespace list                  always JSON: [{"id","title",…}] (no --json flag)
//   kv namespace create <title>        a TOML snippet with id = "<32 hex>"; the title is exactly <title> under --env=""
//   vectorize list --json              [{"name","config":{"dimensions","metric"},…}]
//   vectorize create <name> --dimensions --metric --json
//   vectorize list-metadata-index <name> --json       [{"propertyName","indexType"}]
//   vectorize create-metadata-index <name> --propertyName --type
//   queues info <name>                 "Queue ID: …"; exit 1 and 'Queue "<name>" does not exist' when absent
//                                      (`queues list` prints a paged table; `info` asks by name)
//   queues create <name>
//   secret list                        JSON [{"name","type"}] (the default --format); 'Worker "<name>" not found' before the first deploy
//   secret put <key>                   reads the value from stdin when stdin is not a terminal; creates an
//                                      empty Worker of that name first when there is none
// Every command gets --env="" (the top level, production), as `npm run deploy` does.
import { randomBytes } from "node:crypto";
import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import { stripVTControlCharacters } from "node:util";

/** wrangler's flag for the top-level environment (`--env=""` in a shell). */
const TOP_LEVEL = "--env=";

/** Vectorize compares by cosine: the embedder's vectors are compared that way everywhere else (src/core/ranking/cosine.ts). */
export const VECTORIZE_METRIC = "cosine";

/**
 * The metadata properties Vectorize queries filter on; a filter on a property without a metadata
 * index matches nothing. `model` on every query (src/adapters/vectors/vectorize.ts), `scope` and
 * `memoryType` on memory searches (src/features/memories/search.ts, src/features/memories/store.ts).
 */
export const VECTORIZE_METADATA_INDEXES = [
  { propertyName: "model", type: "string" },
  { propertyName: "scope", type: "string" },
  { propertyName: "memoryType", type: "string" },
];

/**
 * The Worker secrets production needs and how a missing one is generated. An existing secret is
 * never overwritten. DATABASE_URL (FAQ_STORE=postgres only) cannot be generated: see its note.
 */
export const WORKER_SECRETS = [
  {
    name: "SECRETS_KEK",
    purpose: "seals webhook secrets (src/platform/ports/secret-box.ts)",
    // A keyring of one key, `<keyId>:<base64 of 32 bytes>`; docs/guides/secrets.md explains rotation.
    generate: () => `k1:${randomBytes(32).toString("base64")}`,
  },
  {
    name: "UI_SESSION_SECRET",
    purpose: "encrypts the /ui session cookie (src/ui/session.ts, at least 32 characters)",
    generate: () => randomBytes(32).toString("base64"),
  },
];

export class SetupError extends Error {}

export class NotLoggedInError extends SetupError {
  constructor() {
    super(
      [
        "Not logged in to Cloudflare (`wrangler whoami` found no login).",
        "  Run `npx wrangler login` (it opens a browser), then `npm run setup:cloudflare` again.",
        "  Without a browser (CI, SSH): set CLOUDFLARE_API_TOKEN to an API token that may edit Workers Scripts,",
        "  D1, Workers KV Storage, Vectorize and Queues, and CLOUDFLARE_ACCOUNT_ID to the account's id.",
      ].join("\n"),
    );
  }
}

// ---------------------------------------------------------------------------------------------
// wrangler.toml: a line scanner for the keys the setup reads and rewrites, not a TOML parser. It
// keeps each value's position, so a rewrite replaces those characters and nothing else.

/** An id wrangler.toml holds until the setup writes the real one: all zeros (and dashes). */
export function isPlaceholderId(id) {
  return !id || /^[0-]+$/.test(id);
}

/** The tables of a TOML text in order: `path` ("" for the root), `array` for [[…]], and each key's value and position. */
export function scanToml(text) {
  const tables = [{ path: "", array: false, headerLine: -1, lastLine: -1, keys: {} }];
  const lines = text.split("\n");
  let offset = 0;
  let skipUntil = null;
  for (let i = 0; i < lines.length; offset += lines[i].length + 1, i++) {
    const line = lines[i];
    if (skipUntil) {
      if (skipUntil(line)) skipUntil = null;
      continue;
    }
    const header = /^\s*(\[\[?)\s*([^\]#]+?)\s*\]\]?\s*(#.*)?\r?$/.exec(line);
    if (header) {
      tables.push({ path: header[2].replace(/\s*\.\s*/g, "."), array: header[1] === "[[", headerLine: i, lastLine: i, keys: {} });
      continue;
    }
    const pair = /^(\s*)([A-Za-z0-9_-]+|"[^"]*")\s*=\s*/.exec(line);
    if (!pair) continue;
    const key = pair[2].replace(/^"|"$/g, "");
    const start = pair[0].length;
    const rest = line.slice(start);
    const table = tables[tables.length - 1];
    table.lastLine = i;
    let token;
    if (rest.startsWith('"""') || rest.startsWith("'''")) {
      const quote = rest.slice(0, 3);
      if (rest.indexOf(quote, 3) < 0) skipUntil = (next) => next.includes(quote);
      continue;
    } else if (rest.startsWith('"')) {
      token = /^"(?:[^"\\]|\\.)*"/.exec(rest)?.[0];
    } else if (rest.startsWith("'")) {
      token = /^'[^']*'/.exec(rest)?.[0];
    } else if (rest.startsWith("[") || rest.startsWith("{")) {
      const depth = bracketDepth(rest);
      if (depth > 0) {
        let open = depth;
        skipUntil = (next) => (open += bracketDepth(next)) <= 0;
      }
      table.keys[key] = { raw: rest.replace(/\s*\r?$/, ""), line: i };
      continue;
    } else {
      token = /^[^\s#]+/.exec(rest)?.[0];
    }
    if (token === undefined) continue;
    table.keys[key] = { value: tomlScalar(token), line: i, start: offset + start, end: offset + start + token.length };
  }
  return tables;
}

/** Net count of [ and { minus ] and } outside strings. */
function bracketDepth(text) {
  let depth = 0;
  for (const match of text.replace(/"(?:[^"\\]|\\.)*"|'[^']*'|#.*$/g, "").matchAll(/[[\]{}]/g)) depth += "[{".includes(match[0]) ? 1 : -1;
  return depth;
}

function tomlScalar(token) {
  if (token.startsWith('"')) {
    try {
      return JSON.parse(token);
    } catch {
      return token.slice(1, -1);
    }
  }
  if (token.startsWith("'")) return token.slice(1, -1);
  if (token === "true" || token === "false") return token === "true";
  const number = Number(token.replace(/_/g, ""));
  return Number.isFinite(number) ? number : token;
}

const isEnvironmentTable = (table) => table.path === "env" || table.path.startsWith("env.");
const values = (table) => Object.fromEntries(Object.entries(table.keys).map(([key, entry]) => [key, entry.value ?? entry.raw]));

/** What the production Worker (wrangler.toml's top level) binds, as the setup needs it. */
export function readProductionConfig(text) {
  const tables = scanToml(text).filter((table) => !isEnvironmentTable(table));
  const all = (path) => tables.filter((table) => table.path === path).map(values);
  const root = values(tables[0]);
  const vars = Object.assign({}, ...all("vars"));
  const consumers = all("queues.consumers");
  const queues = [
    ...all("queues.producers").map((p) => p.queue),
    ...consumers.map((c) => c.queue),
    ...consumers.map((c) => c.dead_letter_queue),
  ];
  return {
    name: root.name,
    accountId: root.account_id,
    vars,
    d1: all("d1_databases"),
    kv: all("kv_namespaces"),
    vectorize: all("vectorize"),
    queues: [...new Set(queues.filter((queue) => typeof queue === "string" && queue))],
  };
}

/**
 * `--databases N`: the top level with N D1 databases in all: the home one (DB) and DB_1 … DB_{N-1}, tenants are placed in
 * (docs/design/tenant-placement.md). A missing one is added as a block after the last top-level [[d1_databases]], named
 * after DB's database (`recall-1`, …), with a placeholder id the setup then fills; existing ones and every other byte stay.
 */
export function withDatabases(text, count) {
  if (!Number.isInteger(count) || count < 1 || count > 100)
    throw new SetupError(`--databases takes a whole number from 1 to 100, got ${count}`);
  const tables = scanToml(text).filter((t) => !isEnvironmentTable(t) && t.path === "d1_databases");
  const home = tables.find((t) => t.keys.binding?.value === "DB");
  if (!home) throw new SetupError('wrangler.toml has no top-level [[d1_databases]] with binding = "DB"');
  const have = new Set(tables.map((t) => t.keys.binding?.value));
  const lines = text.split("\n");
  const eol = lines[home.headerLine].endsWith("\r") ? "\r" : "";
  const blocks = [];
  for (let n = 1; n < count; n++) {
    if (have.has(`DB_${n}`)) continue;
    blocks.push(
      "",
      "[[d1_databases]]",
      `binding = "DB_${n}"`,
      `database_name = ${JSON.stringify(`${home.keys.database_name?.value ?? "recall"}-${n}`)}`,
      'database_id = "00000000-0000-0000-0000-000000000000"',
      'migrations_dir = "migrations"',
    );
  }
  if (blocks.length === 0) return text;
  lines.splice(Math.max(...tables.map((t) => t.lastLine)) + 1, 0, ...blocks.map((line) => line + eol));
  return lines.join("\n");
}

/**
 * Sets `key` of the top-level [[path]] entry whose `binding` is `binding` to the string `value`.
 * Only that value's characters change (or one line is added when the key is missing); every other
 * byte of the file, comments and the environments' sections included, stays as it was.
 */
export function setBindingValue(text, { path, binding, key, value }) {
  const table = scanToml(text).find((t) => !isEnvironmentTable(t) && t.path === path && t.keys.binding?.value === binding);
  if (!table) throw new SetupError(`wrangler.toml has no top-level [[${path}]] with binding = "${binding}"`);
  const quoted = JSON.stringify(value);
  const entry = table.keys[key];
  if (entry?.start !== undefined) return text.slice(0, entry.start) + quoted + text.slice(entry.end);
  const lines = text.split("\n");
  const after = table.lastLine;
  const eol = lines[after].endsWith("\r") ? "\r" : "";
  lines.splice(after + 1, 0, `${key} = ${quoted}${eol}`);
  return lines.join("\n");
}

// ---------------------------------------------------------------------------------------------
// Reading wrangler's output.

const clean = (output) => stripVTControlCharacters(output ?? "");

/** The JSON document in a command's stdout (wrangler may print a blank line or a banner first). */
export function parseJsonOutput(stdout) {
  const text = clean(stdout);
  const start = text.search(/^\s*[[{]/m);
  if (start < 0) return undefined;
  try {
    return JSON.parse(text.slice(start));
  } catch {
    return undefined;
  }
}

const NOT_LOGGED_IN = /not authenticated|necessary to set a CLOUDFLARE_API_TOKEN|Did not login|wrangler login/i;
const ALREADY_EXISTS = /already exists|already taken|duplicate/i;

/** The last lines of a failed command's output, without colors, for an error message. */
function outputTail({ stdout, stderr }) {
  const lines = `${clean(stderr)}\n${clean(stdout)}`.split("\n").filter((line) => line.trim() && !/Logs were written to/.test(line));
  return lines
    .slice(-12)
    .map((line) => `    ${line}`)
    .join("\n");
}

// ---------------------------------------------------------------------------------------------
// The setup.

/**
 * Finds or creates every resource and secret of the production Worker; with `dryRun`, only finds
 * and reports what it would create. Returns what it did; writes the config (through `config.write`)
 * only when an id changed, so a second run writes nothing.
 *
 * `wrangler(args, { input })` runs `wrangler …args` (stdin = input) and resolves to
 * `{ code, stdout, stderr }`. `config` is `{ read(): string, write(text) }` for wrangler.toml.
 */
export async function setupCloudflare({
  wrangler,
  config,
  dryRun = false,
  log = () => {},
  generateSecret = (secret) => secret.generate(),
}) {
  const run = async (args, options) => {
    const result = await wrangler([...args, TOP_LEVEL], options);
    if (result.code !== 0 && NOT_LOGGED_IN.test(clean(result.stderr) + clean(result.stdout))) throw new NotLoggedInError();
    return result;
  };
  const fail = (args, result) =>
    new SetupError(`\`wrangler ${args.join(" ")}\` failed (exit code ${result.code}):\n${outputTail(result) || "    (no output)"}`);
  const must = async (args, options) => {
    const result = await run(args, options);
    if (result.code !== 0) throw fail(args, result);
    return result;
  };
  const json = async (args, what) => {
    const result = await must(args);
    const parsed = parseJsonOutput(result.stdout);
    if (!Array.isArray(parsed))
      throw new SetupError(`\`wrangler ${args.join(" ")}\` printed no JSON list of ${what}:\n${outputTail(result)}`);
    return parsed;
  };

  // 1. Logged in? (The common first-time case is not.)
  const who = await wrangler(["whoami", "--json"]);
  const me = parseJsonOutput(who.stdout);
  if (me?.loggedIn === false || (who.code !== 0 && NOT_LOGGED_IN.test(clean(who.stderr) + clean(who.stdout)))) throw new NotLoggedInError();
  if (who.code !== 0 || !me) throw fail(["whoami", "--json"], who);

  const original = config.read();
  const worker = readProductionConfig(original);
  const dimensions = Number(worker.vars.EMBEDDING_DIMENSIONS);
  if (!worker.name) throw new SetupError("wrangler.toml has no top-level name");
  if (worker.vectorize.length && !(dimensions > 0))
    throw new SetupError("wrangler.toml's [vars] has no EMBEDDING_DIMENSIONS for the Vectorize index");

  const accounts = me.accounts ?? [];
  const account =
    accounts.length === 1
      ? `, account "${accounts[0].name}" (${accounts[0].id})`
      : accounts.length > 1
        ? `, ${accounts.length} accounts (wrangler uses CLOUDFLARE_ACCOUNT_ID or account_id, else the one it cached; set CLOUDFLARE_ACCOUNT_ID to choose)`
        : "";
  log(
    `${dryRun ? "Dry run: finding" : "Finding or creating"} what the Worker "${worker.name}" binds; logged in as ${me.email ?? me.authType ?? "?"}${account}.`,
  );
  log("Plan:");
  for (const d1 of worker.d1) log(`  D1 database      ${d1.database_name} (binding ${d1.binding})`);
  for (const kv of worker.kv) log(`  KV namespace     ${kvTitle(worker, kv)} (binding ${kv.binding})`);
  for (const index of worker.vectorize)
    log(
      `  Vectorize index  ${index.index_name} (binding ${index.binding}): ${dimensions} dimensions (${worker.vars.EMBEDDING_MODEL}), ${VECTORIZE_METRIC}; metadata indexes ${VECTORIZE_METADATA_INDEXES.map((m) => m.propertyName).join(", ")}`,
    );
  for (const queue of worker.queues) log(`  Queue            ${queue}`);
  for (const secret of WORKER_SECRETS) log(`  Worker secret    ${secret.name}: ${secret.purpose}`);
  log("Progress:");

  const results = [];
  const report = (kind, name, status, detail = "") => {
    results.push({ kind, name, status });
    log(`  ${status.padEnd(12)} ${kind.padEnd(24)} ${detail ? `${name.padEnd(28)} ${detail}` : name}`);
  };
  const willCreate = dryRun ? "would create" : "created";
  const updates = [];
  let text = original;
  const setId = (path, binding, key, value) => {
    updates.push(`${binding} ${key}`);
    text = setBindingValue(text, { path, binding, key, value });
  };

  try {
    // 2. D1: found by the configured id, else by name, else created.
    if (worker.d1.length) {
      let databases = await json(["d1", "list", "--json"], "D1 databases");
      for (const d1 of worker.d1) {
        const configured = isPlaceholderId(d1.database_id) ? undefined : d1.database_id;
        let found = databases.find((db) => configured && db.uuid === configured) ?? databases.find((db) => db.name === d1.database_name);
        let status = "found";
        if (!found && !dryRun) {
          const args = ["d1", "create", d1.database_name];
          const created = await run(args);
          if (created.code === 0) {
            const uuid = /database_id\s*=\s*"([^"]+)"/.exec(clean(created.stdout))?.[1];
            found = uuid ? { uuid, name: d1.database_name } : undefined;
          } else if (!ALREADY_EXISTS.test(clean(created.stderr))) throw fail(args, created);
          // Created without a readable id, or created meanwhile by someone else: ask again.
          if (!found) {
            databases = await json(["d1", "list", "--json"], "D1 databases");
            found = databases.find((db) => db.name === d1.database_name);
          }
          if (!found)
            throw new SetupError(
              `D1 database "${d1.database_name}" was created but \`wrangler d1 list\` does not show it yet: run the setup again`,
            );
          status = created.code === 0 ? "created" : "found";
        }
        if (!found) report("D1 database", d1.database_name, willCreate);
        else {
          report("D1 database", found.name ?? d1.database_name, status, `id ${found.uuid}`);
          if (found.uuid !== d1.database_id) setId("d1_databases", d1.binding, "database_id", found.uuid);
        }
      }
    }

    // 3. KV: found by the configured id (e.g. a namespace created by hand), else by title, else created.
    if (worker.kv.length) {
      let namespaces = await json(["kv", "namespace", "list"], "KV namespaces");
      for (const kv of worker.kv) {
        const title = kvTitle(worker, kv);
        const configured = isPlaceholderId(kv.id) ? undefined : kv.id;
        let found = namespaces.find((ns) => configured && ns.id === configured) ?? namespaces.find((ns) => ns.title === title);
        let status = "found";
        if (!found && !dryRun) {
          const args = ["kv", "namespace", "create", title];
          const created = await run(args);
          if (created.code === 0) {
            const id = /^\s*id\s*=\s*"([^"]+)"/m.exec(clean(created.stdout))?.[1];
            found = id ? { id, title } : undefined;
          } else if (!ALREADY_EXISTS.test(clean(created.stderr))) throw fail(args, created);
          if (!found) {
            namespaces = await json(["kv", "namespace", "list"], "KV namespaces");
            found = namespaces.find((ns) => ns.title === title);
          }
          if (!found)
            throw new SetupError(
              `KV namespace "${title}" was created but \`wrangler kv namespace list\` does not show it yet: run the setup again`,
            );
          status = created.code === 0 ? "created" : "found";
        }
        if (!found) report("KV namespace", title, willCreate);
        else {
          report("KV namespace", found.title ?? title, status, `id ${found.id}`);
          if (found.id !== kv.id) setId("kv_namespaces", kv.binding, "id", found.id);
        }
      }
    }
  } finally {
    // The ids found so far are written even when a later step fails, so a rerun starts from them.
    if (!dryRun && text !== original) config.write(text);
  }

  // 4. Vectorize: the index (its dimensions and metric cannot change later), then its metadata indexes.
  if (worker.vectorize.length) {
    const indexes = await json(["vectorize", "list", "--json"], "Vectorize indexes");
    for (const { index_name: name } of worker.vectorize) {
      const found = indexes.find((index) => index.name === name);
      if (found) {
        const { dimensions: has, metric } = found.config ?? {};
        if (has !== dimensions || metric !== VECTORIZE_METRIC)
          throw new SetupError(
            `Vectorize index "${name}" exists with ${has} dimensions and metric ${metric}, but the Worker embeds with ${worker.vars.EMBEDDING_MODEL} ` +
              `(EMBEDDING_DIMENSIONS = ${dimensions}) and compares by ${VECTORIZE_METRIC}. An index's dimensions and metric cannot change: ` +
              `delete it (\`npx wrangler vectorize delete ${name}\`, which deletes its vectors) or set a new index_name in wrangler.toml, then run the setup again.`,
          );
        report("Vectorize index", name, "found", `${has} dimensions, ${metric}`);
      } else if (dryRun) report("Vectorize index", name, willCreate, `${dimensions} dimensions, ${VECTORIZE_METRIC}`);
      else {
        const args = ["vectorize", "create", name, `--dimensions=${dimensions}`, `--metric=${VECTORIZE_METRIC}`, "--json"];
        const created = await run(args);
        if (created.code !== 0 && !ALREADY_EXISTS.test(clean(created.stderr))) throw fail(args, created);
        report("Vectorize index", name, created.code === 0 ? "created" : "found", `${dimensions} dimensions, ${VECTORIZE_METRIC}`);
      }
      const existing = found || !dryRun ? await json(["vectorize", "list-metadata-index", name, "--json"], "metadata indexes") : [];
      for (const { propertyName, type } of VECTORIZE_METADATA_INDEXES) {
        const label = `${name}.${propertyName}`;
        const has = existing.find((m) => m.propertyName === propertyName);
        if (has) {
          if (String(has.indexType).toLowerCase() !== type)
            throw new SetupError(
              `Vectorize metadata index ${label} has type ${has.indexType}, not ${type}: delete it (\`npx wrangler vectorize delete-metadata-index ${name} --propertyName=${propertyName}\`) and run the setup again`,
            );
          report("Vectorize metadata index", label, "found", type);
        } else if (dryRun) report("Vectorize metadata index", label, willCreate, type);
        else {
          await must(["vectorize", "create-metadata-index", name, `--propertyName=${propertyName}`, `--type=${type}`]);
          report("Vectorize metadata index", label, "created", type);
        }
      }
    }
  }

  // 5. Queues: the producer's and consumer's queue and the dead-letter queue.
  for (const queue of worker.queues) {
    const info = await run(["queues", "info", queue]);
    const id = /Queue ID:\s*(\S+)/.exec(clean(info.stdout))?.[1];
    if (info.code === 0) report("Queue", queue, "found", id ? `id ${id}` : "");
    else if (!/does not exist/.test(clean(info.stderr))) throw fail(["queues", "info", queue], info);
    else if (dryRun) report("Queue", queue, willCreate);
    else {
      const args = ["queues", "create", queue];
      const created = await run(args);
      if (created.code !== 0 && !ALREADY_EXISTS.test(clean(created.stderr))) throw fail(args, created);
      report("Queue", queue, created.code === 0 ? "created" : "found");
    }
  }

  // 6. Secrets: set the missing ones to fresh random values, never printed; never overwrite one.
  const listed = await run(["secret", "list"]);
  let names;
  let workerExists = true;
  if (listed.code === 0) {
    const parsed = parseJsonOutput(listed.stdout);
    if (!Array.isArray(parsed)) throw fail(["secret", "list"], listed);
    names = new Set(parsed.map((secret) => secret.name));
  } else if (/Worker ".*".*not found/.test(clean(listed.stderr))) {
    names = new Set();
    workerExists = false;
  } else throw fail(["secret", "list"], listed);
  for (const secret of WORKER_SECRETS) {
    if (names.has(secret.name)) report("Worker secret", secret.name, "found");
    else if (dryRun) report("Worker secret", secret.name, willCreate, "random value");
    else {
      await must(["secret", "put", secret.name], { input: generateSecret(secret) });
      const holder = workerExists ? "" : ` (wrangler made an empty Worker "${worker.name}" to hold the secrets until \`npm run deploy\`)`;
      report("Worker secret", secret.name, "created", `random value, not shown${holder}`);
      workerExists = true;
    }
  }
  if (worker.vars.FAQ_STORE === "postgres" && !names.has("DATABASE_URL"))
    log(
      '  note         FAQ_STORE = "postgres" needs the DATABASE_URL secret, which cannot be generated: `npx wrangler secret put DATABASE_URL --env=""`',
    );

  const created = results.filter((r) => r.status === "created").length;
  if (dryRun)
    log(
      `Dry run: ${results.filter((r) => r.status === "would create").length} to create, ${updates.length ? `wrangler.toml would get ${updates.join(", ")}` : "wrangler.toml would not change"}.`,
    );
  else
    log(
      `Done: ${results.length - created} found, ${created} created; ${updates.length ? `wrangler.toml: wrote ${updates.join(", ")}` : "wrangler.toml unchanged"}.`,
    );
  return { results, updates, changed: !dryRun && text !== original };
}

/** KV namespaces have titles, wrangler.toml only binding and id: the title is derived, e.g. recall-cache. */
function kvTitle(worker, kv) {
  return `${worker.name}-${String(kv.binding).toLowerCase()}`;
}

// ---------------------------------------------------------------------------------------------

/**
 * The real adapter: runs this project's wrangler (node_modules, as `npx wrangler` does) in `cwd`,
 * non-interactive (stdin is a pipe), without banner or colors, and collects its output.
 */
export function wranglerCli({ cwd, env = process.env }) {
  const bin = createRequire(import.meta.url).resolve("wrangler/bin/wrangler.js");
  return (args, { input } = {}) =>
    new Promise((resolve, reject) => {
      const child = spawn(process.execPath, [bin, ...args], {
        cwd,
        env: { ...env, WRANGLER_HIDE_BANNER: "true", FORCE_COLOR: "0" },
        stdio: ["pipe", "pipe", "pipe"],
      });
      let stdout = "";
      let stderr = "";
      child.stdout.setEncoding("utf8").on("data", (chunk) => (stdout += chunk));
      child.stderr.setEncoding("utf8").on("data", (chunk) => (stderr += chunk));
      child.on("error", reject);
      child.on("close", (code) => resolve({ code: code ?? 1, stdout, stderr }));
      child.stdin.end(input ?? "");
    });
}
