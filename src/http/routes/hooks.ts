/**
 * POST /v1/hooks/claude-code: Claude Code's HTTP hook (`{"type": "http", "url": …}`), and the
 * endpoint the `recall` command forwards its hooks to. The body is the hook's own JSON.
 *   UserPromptSubmit → the context block for the prompt (as /v1/context builds it), returned as
 *     `hookSpecificOutput.additionalContext`; a question is then recorded (after the response) for
 *     later similar-question lookups.
 *   PostToolUse of Read/Edit/Write/MultiEdit → the file joins the session's files (enrichment).
 * The scope is `?scope=` or, by default, one per project directory (from `cwd`).
 *
 * It never blocks or breaks a prompt: every failure (bad key, bad body, a fault) answers 200 `{}`
 * and names its error code in `x-recall-error`, because Claude Code ignores a non-2xx reply anyway
 * and an empty object adds nothing.
 */
import { Hono, type MiddlewareHandler } from "hono";
import { z } from "zod";
import { POST_TOOL_USE, promptContextOutput, scopeForProject, touchedFile, USER_PROMPT_SUBMIT } from "../../features/hooks/claude-code";
import type { AppEnv } from "../context";
import { type ApiResult, callApi, type Dispatch } from "../dispatch";
import { AppError } from "../errors";
import { afterResponse } from "../log";
import { authenticate } from "../middleware/authenticate";
import { jsonBodies } from "../middleware/json-bodies";
import { validate, visibleText } from "../validation";
import { hookDocs } from "../docs/hooks";
import { MAX_MEMORY_CHARS } from "./memories";
import { scopeSchema } from "../schemas/shared";

/** A PostToolUse body carries the tool's whole response (a Read returns the file), so the limit is higher than the API's. */
export const MAX_HOOK_BODY_BYTES = 4 * 1024 * 1024;

// Claude Code adds fields to hook input over time: unknown fields are allowed here (and only here).
const hookInput = z.looseObject({
  hook_event_name: z.string().max(100),
  session_id: visibleText(128).optional(),
  cwd: z.string().max(4096).optional(),
  prompt: z.string().nullish(),
  tool_name: z.string().max(200).optional(),
  tool_input: z.unknown().optional(),
});
const hookQuery = z.object({
  scope: scopeSchema.optional(),
  tokenBudget: z.coerce.number().int().min(50).max(8000).optional(),
});

/** Turns any non-2xx outcome into 200 `{}` with the error code in `x-recall-error`. */
function neverFail(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    await next();
    if (c.res.ok) return;
    const envelope = (await c.res
      .clone()
      .json()
      .catch(() => null)) as { error?: { code?: string } } | null;
    const code = envelope?.error?.code ?? "INTERNAL";
    c.get("log").warn("hook.failed", { status: c.res.status, code });
    c.res = undefined;
    c.res = c.json({}, 200, { "x-recall-error": code });
  };
}

function orThrow(result: ApiResult): unknown {
  if (!result.ok) throw new AppError(result.code, result.message);
  return result.body;
}

export function hooks(dispatch: Dispatch) {
  return (
    new Hono<AppEnv>()
      .use(neverFail())
      .use(jsonBodies(MAX_HOOK_BODY_BYTES))
      // The key first, so a wrong key is reported (x-recall-error) even for a prompt that needs no search.
      .use(authenticate())
      .post("/claude-code", hookDocs.claudeCode, validate("query", hookQuery), validate("json", hookInput), async (c) => {
        const input = c.req.valid("json");
        const query = c.req.valid("query");
        const sessionId = input.session_id;

        if (input.hook_event_name === USER_PROMPT_SUBMIT) {
          const prompt = input.prompt ?? "";
          if (prompt.trim() === "") return c.json({});
          const scope = query.scope ?? (input.cwd ? scopeForProject(input.cwd) : undefined);
          if (!scope) throw new AppError("VALIDATION_FAILED", "Give ?scope= or send the hook's cwd");
          const built = orThrow(
            await callApi(c, dispatch, "POST", "/v1/context", {
              scope,
              prompt,
              sessionId,
              ...(query.tokenBudget ? { tokenBudget: query.tokenBudget } : {}),
            }),
          ) as { class: string; isQuestion: boolean; markdown: string };
          if (built.class === "trivial") return c.json({});
          if (built.isQuestion && prompt.trim().length <= MAX_MEMORY_CHARS) {
            afterResponse(c, "hook.record_question", () =>
              callApi(c, dispatch, "POST", "/v1/memories", { scope, content: prompt, memoryType: "question", sessionId }).then(orThrow),
            );
          }
          return c.json(promptContextOutput(built.markdown) ?? {});
        }

        if (input.hook_event_name === POST_TOOL_USE) {
          const path = touchedFile(input.tool_name, input.tool_input);
          if (!path || !sessionId) return c.json({});
          orThrow(await callApi(c, dispatch, "POST", `/v1/sessions/${encodeURIComponent(sessionId)}/files`, { files: [{ path }] }));
          return c.json({});
        }

        return c.json({});
      })
  );
}
