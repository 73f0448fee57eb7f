/**
 * `recall hook user-prompt-submit|post-tool-use`: reads Claude Code's hook JSON on stdin and
 * forwards what matters to POST /v1/hooks/claude-code (one round trip: the service builds the
 * context and records the question after answering). A trivial prompt, or a tool call that
 * touched no file, makes no request at all. The caller enforces the time budget and the
 * never-fail rule (src/cli/recall.ts); this module only decides and calls.
 */
import { POST_TOOL_USE, promptContextOutput, scopeForProject, touchedFile, USER_PROMPT_SUBMIT } from "../features/hooks/claude-code";
import { classifyQuery } from "../core/text/classify";
import type { RecallConfig } from "./config";
import { type PostReply, postJson } from "./post";

export const HOOK_EVENTS = { "user-prompt-submit": USER_PROMPT_SUBMIT, "post-tool-use": POST_TOOL_USE } as const;
export type HookSubcommand = keyof typeof HOOK_EVENTS;

/** A failure the user should see as one line on stderr (never on stdout: that would reach the model). */
export class HookFailure extends Error {}

export interface HookRun {
  /** What to print on stdout (JSON for Claude Code), or nothing. */
  stdout?: string;
}

function parseInput(stdin: string): Record<string, unknown> {
  let input: unknown;
  try {
    input = JSON.parse(stdin);
  } catch {
    throw new HookFailure("stdin is not the hook's JSON");
  }
  if (typeof input !== "object" || input === null || Array.isArray(input)) throw new HookFailure("stdin is not a JSON object");
  return input as Record<string, unknown>;
}

const text = (v: unknown) => (typeof v === "string" ? v : undefined);

/** The hook body for the service (only the fields it reads: a PostToolUse carries the whole tool response), or null to stay quiet. */
export function hookRequest(subcommand: HookSubcommand, input: Record<string, unknown>): Record<string, unknown> | null {
  const common = { hook_event_name: HOOK_EVENTS[subcommand], session_id: text(input.session_id), cwd: text(input.cwd) };
  if (subcommand === "user-prompt-submit") {
    const prompt = text(input.prompt) ?? "";
    if (prompt.trim() === "" || classifyQuery(prompt).class === "trivial") return null;
    return { ...common, prompt };
  }
  const path = touchedFile(input.tool_name, input.tool_input);
  if (!path || !common.session_id) return null;
  return { ...common, tool_name: input.tool_name, tool_input: { file_path: path } };
}

export async function runHook(
  subcommand: HookSubcommand,
  stdin: string,
  config: RecallConfig,
  projectDir: string | undefined,
  signal: AbortSignal,
): Promise<HookRun> {
  const input = parseInput(stdin);
  const body = hookRequest(subcommand, input);
  if (!body) return {};
  if (!config.apiKey) throw new HookFailure("no API key: set RECALL_API_KEY or run `recall configure`");

  const scope = config.scope ?? scopeForProject(projectDir ?? text(input.cwd) ?? process.cwd());
  let response: PostReply;
  try {
    response = await postJson(
      `${config.url}/v1/hooks/claude-code?scope=${encodeURIComponent(scope)}`,
      { authorization: `Bearer ${config.apiKey}` },
      JSON.stringify(body),
      signal,
    );
  } catch (error) {
    if (signal.aborted) throw error; // the budget ran out: the caller reports it
    const { code, message } = error as Error & { code?: string };
    throw new HookFailure(`cannot reach ${config.url} (${code ?? message})`);
  }
  const failed = response.headers["x-recall-error"];
  if (typeof failed === "string")
    throw new HookFailure(`${config.url} answered ${failed}${failed === "UNAUTHORIZED" ? " (check RECALL_API_KEY)" : ""}`);
  if (response.status < 200 || response.status > 299) throw new HookFailure(`${config.url} answered HTTP ${response.status}`);
  let reply: { hookSpecificOutput?: { additionalContext?: unknown } } | null;
  try {
    reply = JSON.parse(response.text) as typeof reply;
  } catch {
    throw new HookFailure(`${config.url} answered something that is not JSON`);
  }
  const context = reply?.hookSpecificOutput?.additionalContext;
  if (subcommand !== "user-prompt-submit" || typeof context !== "string") return {};
  const output = promptContextOutput(context);
  return output ? { stdout: JSON.stringify(output) } : {};
}
