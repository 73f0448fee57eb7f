import { ALWAYS_OK, describe } from "../openapi/describe";
import { z } from "zod";
import { obj } from "./common";

export const HookOutput = z
  .union([
    obj({}).describe("Nothing to add: a trivial prompt, no context found, another event, or any failure (its code in x-recall-error)"),
    obj({
      hookSpecificOutput: obj({
        hookEventName: z.literal("UserPromptSubmit"),
        additionalContext: z
          .string()
          .describe("The context block for the prompt (as POST /v1/context renders it), cut to Claude Code's limit"),
      }),
    }),
  ])
  .meta({ id: "ClaudeCodeHookOutput" });

export const hookDocs = {
  claudeCode: describe({
    tag: "Hooks",
    summary: "Claude Code hook",
    description:
      "Claude Code's HTTP hook (and where the `recall` command forwards its hooks); the body is the hook's own JSON, unknown fields allowed, up to 4 MiB. UserPromptSubmit: the context block for the prompt as `hookSpecificOutput.additionalContext`, and a question is recorded after the response. PostToolUse of Read/Edit/Write/MultiEdit: the file joins the session's files. The scope is `?scope=` or one per project directory (from `cwd`). It never blocks a prompt: every failure (no or bad key, a bad body, a fault) answers 200 `{}` with its error code in the `x-recall-error` header.",
    responses: {
      200: {
        schema: HookOutput,
        description: "Always 200: the hook output, or `{}` (on a failure with `x-recall-error: <code>`)",
        example: {
          hookSpecificOutput: {
            hookEventName: "UserPromptSubmit",
            additionalContext: "## Similar Questions You've Asked Before\n\n1. How do I deploy to Vercel?",
          },
        },
      },
    },
    requestExample: {
      hook_event_name: "UserPromptSubmit",
      session_id: "3f2a…",
      cwd: "/home/ann/shop",
      prompt: "how do I deploy this to Vercel?",
    },
    extra: { security: [{ bearer: [] }], [ALWAYS_OK]: true },
  }),
};
