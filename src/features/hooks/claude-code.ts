/**
 * Claude Code hooks (https://code.claude.com/docs/en/hooks), the parts both the `recall` command
 * and the HTTP hook route need: which scope a project's memories live in, which file a tool call
 * touched, and the JSON that injects context. Pure, and free of zod and Hono, because the CLI is
 * bundled from it and must start fast on plain Node.
 */

/** Events Recall handles; every other event is answered with nothing. */
export const USER_PROMPT_SUBMIT = "UserPromptSubmit";
export const POST_TOOL_USE = "PostToolUse";

/** Tools whose `tool_input` names a file the session touched (seed 001's enrichment). */
export const FILE_TOOLS: Readonly<Record<string, string>> = {
  Read: "file_path",
  Edit: "file_path",
  Write: "file_path",
  MultiEdit: "file_path",
};

/**
 * Claude Code cuts `additionalContext` at 10,000 characters (the rest goes to a file); staying
 * well under keeps the whole block in the prompt.
 */
export const MAX_HOOK_CONTEXT_CHARS = 9000;

/** Longest file path sent to /v1/sessions/:id/files (its own limit). */
const MAX_PATH_CHARS = 1024;

/** FNV-1a, 32 bits: a short, stable, dependency-free fingerprint (not a security measure). */
function fnv1a(text: string): string {
  let hash = 0x811c9dc5;
  for (const byte of new TextEncoder().encode(text)) {
    hash ^= byte;
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0).toString(16).padStart(8, "0");
}

/**
 * The default scope: one per project directory, `project:<folder name>-<fingerprint of the full
 * path>`, so two checkouts named alike stay apart and the name still reads well in a listing.
 */
export function scopeForProject(directory: string): string {
  const trimmed = directory.replace(/[\\/]+$/, "") || directory;
  const name = (trimmed.split(/[\\/]/).pop() || "root").replace(/[^\w.-]+/g, "_").slice(0, 80);
  return `project:${name}-${fnv1a(trimmed)}`;
}

/** The file a Read/Edit/Write/MultiEdit call touched, or null for any other tool or input. */
export function touchedFile(toolName: unknown, toolInput: unknown): string | null {
  if (typeof toolName !== "string" || !Object.hasOwn(FILE_TOOLS, toolName)) return null;
  if (typeof toolInput !== "object" || toolInput === null) return null;
  const path = (toolInput as Record<string, unknown>)[FILE_TOOLS[toolName]!];
  if (typeof path !== "string") return null;
  const trimmed = path.trim();
  // The files route refuses control characters and overlong paths; such a path is not worth a call.
  return trimmed.length > 0 && trimmed.length <= MAX_PATH_CHARS && !/\p{Cc}/u.test(trimmed) ? trimmed : null;
}

/** Claude Code's reply that adds text to the prompt's context, or null when there is nothing to add. */
export function promptContextOutput(markdown: string): { hookSpecificOutput: { hookEventName: string; additionalContext: string } } | null {
  const text = markdown.trim();
  if (text === "") return null;
  const additionalContext = text.length > MAX_HOOK_CONTEXT_CHARS ? `${text.slice(0, MAX_HOOK_CONTEXT_CHARS - 1)}…` : text;
  return { hookSpecificOutput: { hookEventName: USER_PROMPT_SUBMIT, additionalContext } };
}
