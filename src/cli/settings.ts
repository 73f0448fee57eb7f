/**
 * `recall init claude`: adds Recall's two hooks to a Claude Code settings object, keeping every
 * other hook and setting. Pure: the caller reads and writes the file. A Recall handler already
 * there (same event, a `recall … hook <event>` command) is updated in place, never duplicated.
 */

export interface HookPlan {
  event: "UserPromptSubmit" | "PostToolUse";
  /** The `recall hook` sub-command this event runs. */
  subcommand: "user-prompt-submit" | "post-tool-use";
  matcher?: string;
}

export const RECALL_HOOKS: readonly HookPlan[] = [
  { event: "UserPromptSubmit", subcommand: "user-prompt-submit" },
  { event: "PostToolUse", subcommand: "post-tool-use", matcher: "Read|Edit|Write|MultiEdit" },
];

/** Claude Code's own limit for the handler, in seconds; the hook stops itself much sooner (its budget). */
export const HOOK_TIMEOUT_SECONDS = 5;

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

function isRecallHandler(handler: unknown, subcommand: string): boolean {
  return (
    isObject(handler) &&
    typeof handler.command === "string" &&
    /recall/.test(handler.command) &&
    handler.command.trimEnd().endsWith(`hook ${subcommand}`)
  );
}

/**
 * Returns the new settings and one line per change ("added …", "updated …"); no line means the
 * hooks were already there as wanted. `command` is how to run recall (e.g. `node "/x/recall.mjs"`).
 */
export function addRecallHooks(settings: unknown, command: string): { settings: Json; changes: string[] } {
  if (settings !== undefined && !isObject(settings)) throw new Error("the settings file is not a JSON object");
  const next: Json = structuredClone(settings ?? {});
  if (next.hooks !== undefined && !isObject(next.hooks)) throw new Error('"hooks" in the settings file is not an object');
  const hooks: Json = (next.hooks as Json | undefined) ?? {};
  next.hooks = hooks;
  const changes: string[] = [];

  for (const plan of RECALL_HOOKS) {
    const handler = { type: "command", command: `${command} hook ${plan.subcommand}`, timeout: HOOK_TIMEOUT_SECONDS };
    const groups = hooks[plan.event] ?? [];
    if (!Array.isArray(groups)) throw new Error(`"hooks.${plan.event}" in the settings file is not an array`);
    hooks[plan.event] = groups;
    const existing = groups
      .filter(isObject)
      .flatMap((group) => (Array.isArray(group.hooks) ? group.hooks.map((h: unknown, i: number) => ({ group, i, h })) : []))
      .find(({ h }) => isRecallHandler(h, plan.subcommand));
    if (!existing) {
      groups.push({ ...(plan.matcher ? { matcher: plan.matcher } : {}), hooks: [handler] });
      changes.push(`added ${plan.event}${plan.matcher ? ` (${plan.matcher})` : ""}: ${handler.command}`);
    } else if (JSON.stringify(existing.h) !== JSON.stringify(handler)) {
      // Only the handler changes: its group may hold the user's own hooks, with their matcher.
      (existing.group.hooks as unknown[])[existing.i] = handler;
      changes.push(`updated ${plan.event}: ${handler.command}`);
    }
  }
  return { settings: next, changes };
}
