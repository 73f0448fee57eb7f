/**
 * The `recall` command's configuration: environment variables first (RECALL_URL, RECALL_API_KEY,
 * RECALL_SCOPE, RECALL_HOOK_BUDGET_MS), then the config file in the user's config directory
 * (written with mode 0600 because it holds the key), then defaults. The key is never printed.
 */
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join } from "node:path";

export const DEFAULT_URL = "http://127.0.0.1:8787";
/** The hook's whole time budget, process start to exit: under it the prompt is never held up for long. */
export const DEFAULT_HOOK_BUDGET_MS = 1500;

export interface RecallConfig {
  url: string;
  apiKey?: string | undefined;
  /** Fixed scope; without it each project directory is its own scope. */
  scope?: string | undefined;
  budgetMs: number;
}

type Env = Record<string, string | undefined>;

/** `$RECALL_CONFIG`, else `recall/config.json` under XDG_CONFIG_HOME, APPDATA (Windows) or ~/.config. */
export function configPath(env: Env = process.env): string {
  if (env.RECALL_CONFIG) return env.RECALL_CONFIG;
  const base = env.XDG_CONFIG_HOME || (process.platform === "win32" && env.APPDATA) || join(homedir(), ".config");
  return join(base, "recall", "config.json");
}

type StoredConfig = Partial<Pick<RecallConfig, "url" | "apiKey" | "scope" | "budgetMs">>;

export function readConfigFile(path: string): StoredConfig {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch {
    return {}; // no file: environment and defaults only
  }
  const parsed: unknown = JSON.parse(text);
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) throw new Error(`${path} is not a JSON object`);
  const file = parsed as Record<string, unknown>;
  const str = (v: unknown) => (typeof v === "string" && v.trim() !== "" ? v.trim() : undefined);
  return {
    url: str(file.url),
    apiKey: str(file.apiKey),
    scope: str(file.scope),
    budgetMs: typeof file.budgetMs === "number" ? file.budgetMs : undefined,
  };
}

export function loadConfig(env: Env = process.env): RecallConfig {
  const file = readConfigFile(configPath(env));
  const budget = Number(env.RECALL_HOOK_BUDGET_MS ?? file.budgetMs ?? DEFAULT_HOOK_BUDGET_MS);
  return {
    url: (env.RECALL_URL || file.url || DEFAULT_URL).replace(/\/+$/, ""),
    apiKey: env.RECALL_API_KEY || file.apiKey,
    scope: env.RECALL_SCOPE || file.scope,
    budgetMs: Number.isFinite(budget) && budget > 0 ? budget : DEFAULT_HOOK_BUDGET_MS,
  };
}

/** Merges `changes` into the config file, creating it (and its directory) owner-only. */
export function writeConfigFile(path: string, changes: StoredConfig): StoredConfig {
  const next = { ...readConfigFile(path), ...Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined)) };
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  writeFileSync(path, `${JSON.stringify(next, null, 2)}\n`, { mode: 0o600 });
  chmodSync(path, 0o600); // writeFileSync's mode only applies to a new file
  return next;
}
