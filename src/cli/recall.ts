/**
 * `recall`: Recall for coding assistants, from the command line.
 *   recall hook user-prompt-submit|post-tool-use   (run by Claude Code; see hook.ts)
 *   recall init claude [--user] [--dir D] [--command C]
 *   recall configure [--url U] [--api-key K|-] [--scope S] [--budget-ms N]
 *   recall status
 *   recall calibrate [--pairs FILE.jsonl …] [--sources faqs,reviews,uploaded] [--deployment]
 *   recall query "<text>"
 *   recall move-tenant <tenant id> --to <database>
 * Bundled by scripts/build-cli.mjs into dist/cli/recall.mjs (package.json `bin`): plain Node, no
 * dependency at run time.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { scopeForProject } from "../features/hooks/claude-code";
import { configPath, DEFAULT_HOOK_BUDGET_MS, loadConfig, writeConfigFile } from "./config";
import { HOOK_EVENTS, HookFailure, type HookSubcommand, runHook } from "./hook";
import { calibrate } from "./calibrate";
import { moveTenant } from "./move-tenant";
import { postJson, unreachable } from "./post";
import { query } from "./query";
import { addRecallHooks } from "./settings";

const USAGE = `usage:
  recall init claude [--user] [--dir <project>] [--command <how to run recall>]
      add Recall's UserPromptSubmit and PostToolUse hooks to .claude/settings.json
      (--user: ~/.claude/settings.json), keeping every other hook
  recall configure [--url <url>] [--api-key <key>|-] [--scope <scope>] [--budget-ms <ms>]
      save settings to ${configPath()} (mode 0600); "-" reads the key from stdin
  recall status
      check the service and the key, and show the scope of this directory
  recall query "<text>"
      what the scope remembers for a question (similar questions, memories), nothing recorded;
      a trivial prompt says so and why
  recall calibrate [--pairs <file.jsonl> …] [--sources faqs,reviews,uploaded] [--deployment]
      (admin key) fit the service's similarity scale on your own labels: uploads the pairs
      ({"a","b","label"} per line) first, then runs the fit to the end and prints its figures
  recall move-tenant <tenant id> --to <DB|DB_1|…>
      (an admin key of the operator's tenant) move a tenant to another D1 database: its writes
      wait while its rows are copied and verified, then it is switched; nothing is lost
  recall hook user-prompt-submit|post-tool-use
      run by Claude Code: hook JSON on stdin, context JSON on stdout; never fails the prompt

environment (overrides the config file): RECALL_URL, RECALL_API_KEY, RECALL_SCOPE, RECALL_HOOK_BUDGET_MS`;

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

/** The hook: whatever happens, exit 0 within the budget; failures are one stderr line, stdout stays empty. */
function hook(subcommand: string | undefined): void {
  let finished = false;
  const finish = (stdout?: string, problem?: string) => {
    if (finished) return;
    finished = true;
    const writes: Promise<void>[] = [];
    if (stdout) writes.push(new Promise((done) => process.stdout.write(stdout, () => done())));
    if (problem) writes.push(new Promise((done) => process.stderr.write(`recall: ${problem.split("\n")[0]}\n`, () => done())));
    void Promise.all(writes).then(() => process.exit(0));
    setTimeout(() => process.exit(0), 100).unref(); // a stuck pipe must not hold the prompt
  };
  process.on("uncaughtException", (error) => finish(undefined, `internal error: ${error.message}`));

  let budgetMs = DEFAULT_HOOK_BUDGET_MS;
  let config;
  try {
    config = loadConfig();
    budgetMs = config.budgetMs;
  } catch (error) {
    return finish(undefined, `bad configuration: ${(error as Error).message}`);
  }
  const controller = new AbortController();
  // performance.now() counts from the process's start: the budget includes Node's own start-up.
  setTimeout(
    () => {
      controller.abort();
      finish(undefined, `gave up after ${budgetMs} ms (RECALL_HOOK_BUDGET_MS)`);
    },
    Math.max(0, budgetMs - performance.now()),
  );
  if (!subcommand || !Object.hasOwn(HOOK_EVENTS, subcommand)) {
    return finish(undefined, `unknown hook "${subcommand ?? ""}" (user-prompt-submit or post-tool-use)`);
  }
  readStdin()
    .then((stdin) => runHook(subcommand as HookSubcommand, stdin, config, process.env.CLAUDE_PROJECT_DIR, controller.signal))
    .then(
      (run) => finish(run.stdout),
      (error: Error) => finish(undefined, error instanceof HookFailure ? error.message : `internal error: ${error.message}`),
    );
}

/** How settings.json should run this very script: node with its absolute path (works from a clone and from a global install). */
function defaultCommand(): string {
  return `node "${fileURLToPath(import.meta.url)}"`;
}

function initClaude(args: string[]): void {
  const { values } = parseArgs({ args, options: { user: { type: "boolean" }, dir: { type: "string" }, command: { type: "string" } } });
  const file = values.user ? join(homedir(), ".claude", "settings.json") : join(resolve(values.dir ?? "."), ".claude", "settings.json");
  const current: unknown = existsSync(file) ? JSON.parse(readFileSync(file, "utf8")) : undefined;
  const { settings, changes } = addRecallHooks(current, values.command ?? defaultCommand());
  if (changes.length === 0) {
    console.log(`${file}: Recall's hooks are already there; nothing changed.`);
  } else {
    mkdirSync(join(file, ".."), { recursive: true });
    writeFileSync(file, `${JSON.stringify(settings, null, 2)}\n`);
    console.log(`${file}:`);
    for (const change of changes) console.log(`  ${change}`);
  }
  const config = loadConfig();
  console.log(
    `The hooks call ${config.url} with ${config.apiKey ? "the configured API key" : "NO API key yet: run `recall configure --api-key -` or set RECALL_API_KEY"}.`,
  );
}

async function configure(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: { url: { type: "string" }, "api-key": { type: "string" }, scope: { type: "string" }, "budget-ms": { type: "string" } },
  });
  const apiKey = values["api-key"] === "-" ? (await readStdin()).trim() : values["api-key"];
  const budgetMs = values["budget-ms"] === undefined ? undefined : Number(values["budget-ms"]);
  if (budgetMs !== undefined && !(budgetMs > 0)) throw new Error("--budget-ms must be a positive number");
  const path = configPath();
  const saved = writeConfigFile(path, { url: values.url, apiKey, scope: values.scope, budgetMs });
  console.log(
    `${path} (mode 0600): url=${saved.url ?? "(default)"} apiKey=${saved.apiKey ? "(set)" : "(not set)"} scope=${saved.scope ?? "(one per project)"}`,
  );
}

const STATUS_TIMEOUT_MS = 5000;

/** What the hooks would use, and whether it works: the service answers and accepts the key. */
async function status(): Promise<void> {
  const config = loadConfig();
  const scope = config.scope ?? scopeForProject(process.env.CLAUDE_PROJECT_DIR ?? process.cwd());
  console.log(`url:    ${config.url}\nkey:    ${config.apiKey ? "set" : "NOT SET"}\nscope:  ${scope}\nbudget: ${config.budgetMs} ms`);
  const reply = await postJson(
    `${config.url}/v1/query/analyze`,
    { authorization: `Bearer ${config.apiKey ?? ""}` },
    JSON.stringify({ text: "status check" }),
    AbortSignal.timeout(STATUS_TIMEOUT_MS),
  ).catch((error: Error & { code?: string }) => {
    throw unreachable(config.url, error, STATUS_TIMEOUT_MS);
  });
  if (reply.status === 401) throw new Error(`${config.url} refuses the API key`);
  if (reply.status !== 200) throw new Error(`${config.url} answered HTTP ${reply.status}`);
  console.log("ok:     the service answers and accepts the key");
}

async function main(argv: string[]): Promise<void> {
  const [command, subcommand, ...rest] = argv;
  if (command === "hook") return hook(subcommand);
  try {
    if (command === "init" && subcommand === "claude") return initClaude(rest);
    if (command === "configure") return await configure(argv.slice(1));
    if (command === "status") return await status();
    if (command === "query")
      return console.log(await query(argv.slice(1).join(" "), loadConfig(), process.env.CLAUDE_PROJECT_DIR ?? process.cwd()));
    if (command === "calibrate") {
      if (await calibrate(argv.slice(1), loadConfig())) return;
      process.exitCode = 1;
      return;
    }
    if (command === "move-tenant") {
      if (await moveTenant(argv.slice(1), loadConfig())) return;
      process.exitCode = 1;
      return;
    }
    if (command === undefined || command === "help" || command === "--help" || command === "-h") return console.log(USAGE);
    console.error(`recall: unknown command "${argv.join(" ")}"\n${USAGE}`);
  } catch (error) {
    console.error(`recall: ${(error as Error).message}`);
  }
  process.exitCode = 1;
}

void main(process.argv.slice(2));
