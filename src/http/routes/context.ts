import { Hono } from "hono";
import { z } from "zod";
import { buildContext } from "../../features/context/build";
import { DEFAULT_CONTEXT_TOKEN_BUDGET } from "../../features/context/markdown";
import { recallStatements } from "../../features/memories/store";
import { metricStatements } from "../../platform/observe/counters";
import type { AppEnv } from "../context";
import { afterResponse } from "../log";
import { readsOnly } from "../route-facts";
import { validate, visibleText } from "../validation";
import { scopeSchema } from "../schemas/shared";
import { memoryDocs } from "../docs/memories";

/** Prompts longer than this are refused; up to it they are cut to MAX_CONTEXT_PROMPT_CHARS before search. */
const MAX_PROMPT_INPUT_CHARS = 100_000;

export const contextSchema = z.strictObject({
  scope: scopeSchema,
  prompt: z.string().max(MAX_PROMPT_INPUT_CHARS),
  sessionId: visibleText(128).optional(),
  tokenBudget: z.number().int().min(50).max(8000).default(DEFAULT_CONTEXT_TOKEN_BUDGET),
});

/** POST /v1/context: the markdown block (similar questions, facts, memories) for an LLM's system prompt. */
export const context = new Hono<AppEnv>().post("/", memoryDocs.context, readsOnly, validate("json", contextSchema), async (c) => {
  const started = performance.now();
  const services = c.get("services");
  const { tenantId } = c.get("principal");
  const timings = { embedMs: 0 };
  const result = await buildContext(services, tenantId, c.req.valid("json"), timings);
  const ms = performance.now() - started;
  c.header("server-timing", `embed;dur=${timings.embedMs.toFixed(2)}, total;dur=${ms.toFixed(2)}`);
  if (result.class === "trivial") {
    // Seed 000's detection rate is over every message: a trivial prompt is one that is not a question.
    afterResponse(c, "context.metrics", () =>
      services.db.batch(metricStatements(services.db, tenantId, services.clock.now(), [{ name: "prompt" }, { name: "trivial_prompt" }])),
    );
    return c.json(result);
  }

  const top = result.sections.similarQuestions[0];
  if (result.isQuestion) c.get("log").info("context.question_detected");
  if (result.degraded.length > 0) c.get("log").info("context.degraded", { degraded: result.degraded });
  c.get("log").info("context.built", {
    similarQuestions: result.sections.similarQuestions.length,
    memories: result.sections.memories.length,
    tokens: result.tokens,
    ms,
  });
  const now = services.clock.now();
  const recalled = [...result.sections.similarQuestions.map((q) => q.id), ...result.sections.memories.map((m) => m.id)];
  afterResponse(c, "context.metrics", () =>
    services.db.batch([
      ...recallStatements(services.db, tenantId, recalled, now),
      ...metricStatements(
        services.db,
        tenantId,
        now,
        [
          { name: "prompt" },
          ...(result.isQuestion ? [{ name: "question_detected" }, { name: "similar_lookup" }] : []),
          ...(top ? [{ name: "similar_hit" }] : []),
          ...(top?.similarity != null ? [{ name: "similarity", value: top.similarity }] : []),
        ],
        { name: "context", ms },
      ),
    ]),
  );
  return c.json(result);
});
