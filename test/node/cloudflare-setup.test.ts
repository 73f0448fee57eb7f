/**
 * `npm run setup:cloudflare` (scripts/support/cloudflare-setup.mjs) against wrangler's recorded
 * output (test/node/fixtures/wrangler/), not a live account: first run, second run, a partial
 * state, "already exists", the wrangler.toml rewrite, and the not-logged-in case.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  NotLoggedInError,
  readProductionConfig,
  SetupError,
  setBindingValue,
  setupCloudflare,
  withDatabases,
  wranglerCli,
  // @ts-expect-error: plain ESM module shared with `npm run setup:cloudflare`, no type declarations
} from "../../scripts/support/cloudflare-setup.mjs";

const ROOT = new URL("../../", import.meta.url);
const WRANGLER_TOML = readFileSync(new URL("wrangler.toml", ROOT), "utf8");
const fixture = (name: string) => readFileSync(new URL(`fixtures/wrangler/${name}`, import.meta.url), "utf8");

/** The ids in the fixtures. */
const D1_ID = "5f0f8c1e-3b7a-4d2e-9a61-2c4b8e7d1f03";
const KV_ID = "9a3c6e1b0f2d4c8e8b7a5d3f1e0c2b4a";
const KV_ID_TITLED_CACHE = "4e2d7c9b1a0f4e3d8c6b5a4f3e2d1c0b";
const SECRET_VALUES: Record<string, string> = {
  SECRETS_KEK: "k1:generated-kek-never-printed",
  UI_SESSION_SECRET: "generated-session-secret-never-printed",
};

interface Reply {
  code: number;
  stdout: string;
  stderr: string;
}
const ok = (stdout: string): Reply => ({ code: 0, stdout: fixture(stdout), stderr: "" });
const failed = (stderr: string): Reply => ({ code: 1, stdout: "\n", stderr: fixture(stderr) });

/**
 * A wrangler that answers from recorded output. `script` maps a command (without --env=) to its
 * replies, used in order, the last one again; a command not in the script fails the run, so a
 * script without create commands proves nothing is created.
 */
function fakeWrangler(script: Record<string, Reply | Reply[]>) {
  const calls: { command: string; topLevel: boolean; input?: string }[] = [];
  const left = new Map(Object.entries(script).map(([command, replies]) => [command, Array.isArray(replies) ? [...replies] : [replies]]));
  const wrangler = async (args: string[], { input }: { input?: string } = {}) => {
    const command = args.filter((arg) => arg !== "--env=").join(" ");
    calls.push({ command, topLevel: args.includes("--env="), input });
    const replies = left.get(command);
    if (!replies) throw new Error(`unexpected command: wrangler ${command}`);
    return replies.length > 1 ? replies.shift() : replies[0];
  };
  const ran = (prefix: string) => calls.filter((call) => call.command.startsWith(prefix)).map((call) => call.command);
  return { wrangler, calls, ran };
}

function memoryConfig(text: string) {
  const config = { text, writes: 0, read: () => config.text, write: (next: string) => ((config.text = next), config.writes++) };
  return config;
}

async function setup(script: Record<string, Reply | Reply[]>, text: string, options: { dryRun?: boolean } = {}) {
  const fake = fakeWrangler(script);
  const config = memoryConfig(text);
  const lines: string[] = [];
  const outcome = setupCloudflare({
    wrangler: fake.wrangler,
    config,
    log: (line: string) => lines.push(line),
    generateSecret: (secret: { name: string }) => SECRET_VALUES[secret.name],
    ...options,
  });
  return { fake, config, lines, outcome };
}

const LOGGED_IN = { "whoami --json": ok("whoami.logged-in.stdout.txt") };

/** An account with none of the resources, and a Worker never deployed. */
const EMPTY_ACCOUNT = {
  ...LOGGED_IN,
  "d1 list --json": ok("d1-list.empty.stdout.txt"),
  "d1 create recall": ok("d1-create.stdout.txt"),
  "kv namespace list": ok("kv-namespace-list.empty.stdout.txt"),
  "kv namespace create recall-cache": ok("kv-namespace-create.stdout.txt"),
  "vectorize list --json": ok("vectorize-list.empty.stdout.txt"),
  "vectorize create recall-vectors --dimensions=1024 --metric=cosine --json": ok("vectorize-create.stdout.txt"),
  "vectorize list-metadata-index recall-vectors --json": ok("vectorize-list-metadata-index.empty.stdout.txt"),
  "vectorize create-metadata-index recall-vectors --propertyName=model --type=string": ok("vectorize-create-metadata-index.stdout.txt"),
  "vectorize create-metadata-index recall-vectors --propertyName=scope --type=string": ok("vectorize-create-metadata-index.stdout.txt"),
  "vectorize create-metadata-index recall-vectors --propertyName=memoryType --type=string": ok(
    "vectorize-create-metadata-index.stdout.txt",
  ),
  "queues info recall-tickets": failed("queues-info.recall-tickets.not-found.stderr.txt"),
  "queues info recall-tickets-dlq": failed("queues-info.recall-tickets-dlq.not-found.stderr.txt"),
  "queues create recall-tickets": ok("queues-create.recall-tickets.stdout.txt"),
  "queues create recall-tickets-dlq": ok("queues-create.recall-tickets-dlq.stdout.txt"),
  "secret list": failed("secret-list.worker-not-found.stderr.txt"),
  "secret put SECRETS_KEK": ok("secret-put.SECRETS_KEK.new-worker.stdout.txt"),
  "secret put UI_SESSION_SECRET": ok("secret-put.UI_SESSION_SECRET.stdout.txt"),
};

/** Everything exists; list and info commands only. */
const COMPLETE_ACCOUNT = {
  ...LOGGED_IN,
  "d1 list --json": ok("d1-list.stdout.txt"),
  "kv namespace list": ok("kv-namespace-list.stdout.txt"),
  "vectorize list --json": ok("vectorize-list.stdout.txt"),
  "vectorize list-metadata-index recall-vectors --json": ok("vectorize-list-metadata-index.stdout.txt"),
  "queues info recall-tickets": ok("queues-info.recall-tickets.stdout.txt"),
  "queues info recall-tickets-dlq": ok("queues-info.recall-tickets-dlq.stdout.txt"),
  "secret list": ok("secret-list.stdout.txt"),
};

/** wrangler.toml after the first run: the real file with the two production ids set. */
function configuredToml(): string {
  const withD1 = setBindingValue(WRANGLER_TOML, { path: "d1_databases", binding: "DB", key: "database_id", value: D1_ID });
  return setBindingValue(withD1, { path: "kv_namespaces", binding: "CACHE", key: "id", value: KV_ID });
}

const statuses = (results: { kind: string; name: string; status: string }[]) =>
  Object.fromEntries(results.map((r) => [`${r.kind} ${r.name}`, r.status]));

describe("npm run setup:cloudflare", () => {
  it("reads what the production Worker binds from wrangler.toml's top level, not its environments", () => {
    const worker = readProductionConfig(WRANGLER_TOML);
    expect(worker.name).toBe("recall");
    expect(worker.d1).toEqual([expect.objectContaining({ binding: "DB", database_name: "recall" })]);
    expect(worker.kv).toEqual([expect.objectContaining({ binding: "CACHE" })]);
    expect(worker.vectorize).toEqual([expect.objectContaining({ binding: "VECTORIZE", index_name: "recall-vectors" })]);
    expect(worker.queues).toEqual(["recall-tickets", "recall-tickets-dlq"]);
    expect(worker.vars.EMBEDDING_DIMENSIONS).toBe("1024");
  });

  it("first run: creates every resource and secret and writes the two ids into wrangler.toml", async () => {
    const { fake, config, lines, outcome } = await setup(EMPTY_ACCOUNT, WRANGLER_TOML);
    const { results, updates } = await outcome;

    expect(Object.values(statuses(results))).toEqual(Array(10).fill("created"));
    expect(fake.ran("d1 create")).toEqual(["d1 create recall"]);
    expect(fake.ran("kv namespace create")).toEqual(["kv namespace create recall-cache"]);
    expect(fake.ran("vectorize create")).toHaveLength(4); // the index and its three metadata indexes
    expect(fake.ran("queues create")).toEqual(["queues create recall-tickets", "queues create recall-tickets-dlq"]);
    // Every command but whoami targets the top level (production), as `npm run deploy` does.
    expect(fake.calls.filter((call) => !call.topLevel).map((call) => call.command)).toEqual(["whoami --json"]);

    // The secrets go to wrangler on stdin and nowhere else.
    const puts = fake.calls.filter((call) => call.command.startsWith("secret put"));
    expect(puts.map((call) => [call.command, call.input])).toEqual([
      ["secret put SECRETS_KEK", SECRET_VALUES.SECRETS_KEK],
      ["secret put UI_SESSION_SECRET", SECRET_VALUES.UI_SESSION_SECRET],
    ]);
    for (const value of Object.values(SECRET_VALUES)) expect(lines.join("\n")).not.toContain(value);

    expect(updates).toEqual(["DB database_id", "CACHE id"]);
    expect(config.writes).toBe(1);
    expect(config.text).toBe(configuredToml());
    expect(lines.join("\n")).toMatch(/created\s+D1 database\s+recall\s+id 5f0f8c1e/);
  });

  it("the rewrite changes the two production id values and keeps every other byte, comments and environments included", () => {
    const before = WRANGLER_TOML.split("\n");
    const after = configuredToml().split("\n");
    expect(after).toHaveLength(before.length);
    const changed = after.flatMap((line, i) => (line === before[i] ? [] : [[before[i], line]]));
    expect(changed).toEqual([
      ['database_id = "00000000-0000-0000-0000-000000000000"', `database_id = "${D1_ID}"`],
      ['id = "00000000000000000000000000000000"', `id = "${KV_ID}"`],
    ]);
    // The [env.local] and [env.test] bindings (DB and DB_1 in each) keep their placeholders.
    expect(configuredToml().match(/database_id = "0{8}-/g)).toHaveLength(4);
    expect(readProductionConfig(configuredToml()).d1[0].database_id).toBe(D1_ID);
  });

  it("--databases N adds the missing top-level D1 blocks (DB_1 …) after DB's, once, and changes no other byte", () => {
    const three: string = withDatabases(WRANGLER_TOML, 3);
    const d1 = readProductionConfig(three).d1 as { binding: string; database_name: string; database_id: string }[];
    expect(d1.map((d) => [d.binding, d.database_name])).toEqual([
      ["DB", "recall"],
      ["DB_1", "recall-1"],
      ["DB_2", "recall-2"],
    ]);
    expect(d1[1]!.database_id).toMatch(/^0{8}-/);
    // Two blocks of six lines added in one place; every other line as it was.
    const before = WRANGLER_TOML.split("\n");
    const after = three.split("\n");
    const at = after.findIndex((line, k) => line !== before[k]);
    expect([...after.slice(0, at), ...after.slice(at + 12)]).toEqual(before);
    expect(withDatabases(three, 3)).toBe(three);
    expect(withDatabases(three, 2)).toBe(three); // never removes one: its tenants' rows are there
    expect(withDatabases(WRANGLER_TOML, 1)).toBe(WRANGLER_TOML);
    expect(() => withDatabases(WRANGLER_TOML, 0)).toThrow(SetupError);
  });

  it("the rewrite keeps a trailing comment and CRLF line ends, and adds a missing key after the entry's last key", () => {
    const text =
      '# top\r\n[[d1_databases]]\r\nbinding = "DB"\r\ndatabase_id = "0000" # pasted by hand\r\n\r\n[[kv_namespaces]]\r\nbinding = "CACHE"\r\n# no id yet\r\n';
    expect(setBindingValue(text, { path: "d1_databases", binding: "DB", key: "database_id", value: "abc" })).toBe(
      text.replace('"0000"', '"abc"'),
    );
    expect(setBindingValue(text, { path: "kv_namespaces", binding: "CACHE", key: "id", value: "f00" })).toBe(
      text.replace('binding = "CACHE"\r\n', 'binding = "CACHE"\r\nid = "f00"\r\n'),
    );
    expect(() => setBindingValue(text, { path: "kv_namespaces", binding: "NOPE", key: "id", value: "x" })).toThrow(SetupError);
  });

  it("second run: finds everything, creates nothing and does not write wrangler.toml", async () => {
    const first = await setup(EMPTY_ACCOUNT, WRANGLER_TOML);
    await first.outcome;
    const { fake, config, lines, outcome } = await setup(COMPLETE_ACCOUNT, first.config.text);
    const { results, updates, changed } = await outcome;

    expect(Object.values(statuses(results))).toEqual(Array(10).fill("found"));
    expect(fake.calls.map((call) => call.command).filter((command) => /create|put/.test(command))).toEqual([]);
    expect(updates).toEqual([]);
    expect(changed).toBe(false);
    expect(config.writes).toBe(0);
    expect(config.text).toBe(first.config.text);
    expect(lines.at(-1)).toBe("Done: 10 found, 0 created; wrangler.toml unchanged.");
  });

  it("partial state: keeps what exists (a KV id pasted by hand included) and creates only the rest", async () => {
    const handConfigured = setBindingValue(WRANGLER_TOML, {
      path: "kv_namespaces",
      binding: "CACHE",
      key: "id",
      value: KV_ID_TITLED_CACHE,
    });
    const { fake, config, outcome } = await setup(
      {
        ...COMPLETE_ACCOUNT,
        // the README's old commands made a namespace titled "CACHE"; its id is in wrangler.toml
        "kv namespace list": ok("kv-namespace-list.readme-title.stdout.txt"),
        "vectorize list-metadata-index recall-vectors --json": ok("vectorize-list-metadata-index.model.stdout.txt"),
        "vectorize create-metadata-index recall-vectors --propertyName=scope --type=string": ok(
          "vectorize-create-metadata-index.stdout.txt",
        ),
        "vectorize create-metadata-index recall-vectors --propertyName=memoryType --type=string": ok(
          "vectorize-create-metadata-index.stdout.txt",
        ),
        "queues info recall-tickets-dlq": failed("queues-info.recall-tickets-dlq.not-found.stderr.txt"),
        "queues create recall-tickets-dlq": ok("queues-create.recall-tickets-dlq.stdout.txt"),
        "secret list": ok("secret-list.kek.stdout.txt"),
        "secret put UI_SESSION_SECRET": ok("secret-put.UI_SESSION_SECRET.stdout.txt"),
      },
      handConfigured,
    );
    const { results, updates } = await outcome;

    expect(statuses(results)).toEqual({
      "D1 database recall": "found",
      "KV namespace CACHE": "found",
      "Vectorize index recall-vectors": "found",
      "Vectorize metadata index recall-vectors.model": "found",
      "Vectorize metadata index recall-vectors.scope": "created",
      "Vectorize metadata index recall-vectors.memoryType": "created",
      "Queue recall-tickets": "found",
      "Queue recall-tickets-dlq": "created",
      "Worker secret SECRETS_KEK": "found",
      "Worker secret UI_SESSION_SECRET": "created",
    });
    expect(fake.calls.filter((call) => call.command.startsWith("secret put")).map((call) => call.command)).toEqual([
      "secret put UI_SESSION_SECRET",
    ]);
    // The D1 database was found by name: its id is written; the KV id by hand stays.
    expect(updates).toEqual(["DB database_id"]);
    expect(config.writes).toBe(1);
    expect(config.text).toBe(setBindingValue(handConfigured, { path: "d1_databases", binding: "DB", key: "database_id", value: D1_ID }));
  });

  it('"already exists" on create (made meanwhile): lists again and uses what it finds', async () => {
    const { fake, config, outcome } = await setup(
      {
        ...COMPLETE_ACCOUNT,
        "d1 list --json": [ok("d1-list.empty.stdout.txt"), ok("d1-list.stdout.txt")],
        "d1 create recall": failed("d1-create.already-exists.stderr.txt"),
      },
      configuredToml().replace(D1_ID, "00000000-0000-0000-0000-000000000000"),
    );
    const { results } = await outcome;
    expect(statuses(results)["D1 database recall"]).toBe("found");
    expect(fake.ran("d1")).toEqual(["d1 list --json", "d1 create recall", "d1 list --json"]);
    expect(config.text).toBe(configuredToml());
  });

  it("dry run: looks only, creates and writes nothing", async () => {
    const lookups = Object.fromEntries(Object.entries(EMPTY_ACCOUNT).filter(([command]) => !/create|put/.test(command)));
    const { fake, config, lines, outcome } = await setup(lookups, WRANGLER_TOML, { dryRun: true });
    const { results, changed } = await outcome;
    expect(Object.values(statuses(results))).toEqual(Array(10).fill("would create"));
    expect(fake.ran("vectorize list-metadata-index")).toEqual([]);
    expect(changed).toBe(false);
    expect(config.writes).toBe(0);
    expect(lines.at(-1)).toBe("Dry run: 10 to create, wrangler.toml would not change.");
  });

  it("an existing Vectorize index of other dimensions stops the setup with what to do; ids found before are kept", async () => {
    const { config, outcome } = await setup(
      { ...COMPLETE_ACCOUNT, "vectorize list --json": ok("vectorize-list.768.stdout.txt") },
      WRANGLER_TOML,
    );
    await expect(outcome).rejects.toThrow(
      /"recall-vectors" exists with 768 dimensions.*EMBEDDING_DIMENSIONS = 1024.*vectorize delete recall-vectors/s,
    );
    expect(config.text).toBe(configuredToml());
  });

  it("not logged in: says how to log in and runs nothing else", async () => {
    const { fake, config, outcome } = await setup(
      { "whoami --json": { code: 1, stdout: fixture("whoami.not-logged-in.stdout.txt"), stderr: "" } },
      WRANGLER_TOML,
    );
    await expect(outcome).rejects.toBeInstanceOf(NotLoggedInError);
    await expect(outcome).rejects.toThrow(/Not logged in to Cloudflare[\s\S]*npx wrangler login[\s\S]*CLOUDFLARE_API_TOKEN/);
    expect(fake.calls.map((call) => call.command)).toEqual(["whoami --json"]);
    expect(config.writes).toBe(0);
  });

  it("a login that stops working mid-run is the same clear error", async () => {
    const { outcome } = await setup({ ...LOGGED_IN, "d1 list --json": failed("not-logged-in.stderr.txt") }, WRANGLER_TOML);
    await expect(outcome).rejects.toBeInstanceOf(NotLoggedInError);
  });

  it("the real wrangler adapter, with no login: the not-logged-in error, nothing read or written", async () => {
    const home = mkdtempSync(join(tmpdir(), "recall-no-login-"));
    // A fresh home and no token: not logged in, whatever the machine running the test is logged into.
    const env = { PATH: process.env.PATH ?? "", HOME: home, XDG_CONFIG_HOME: home };
    const wrangler = wranglerCli({ cwd: new URL(".", ROOT).pathname, env });
    const config = { read: () => expect.unreachable("read"), write: () => expect.unreachable("write") };
    try {
      await expect(setupCloudflare({ wrangler, config })).rejects.toBeInstanceOf(NotLoggedInError);
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });
});
