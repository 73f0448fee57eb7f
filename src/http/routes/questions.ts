import { Hono } from "hono";
import { z } from "zod";
import { createMemory, findRepeatedQuestion, type NewMemory, recallStatements } from "../../features/memories/store";
import { metricStatements } from "../../platform/observe/counters";
import { DEFAULT_SIMILAR_QUESTIONS, findSimilarQuestions } from "../../features/questions/similar";
import { informationNeed } from "../../core/text/need";
import type { AppEnv } from "../context";
import { afterResponse } from "../log";
import { validate, visibleText } from "../validation";
import { MAX_MEMORY_CHARS } from "./memories";
import { scopeSchema } from "../schemas/shared";
import { memoryDocs } from "../docs/memories";

export const similarSchema = z.strictObject({
  scope: scopeSchema,
  text: visibleText(MAX_MEMORY_CHARS),
  limit: z.number().int().min(1).max(10).default(DEFAULT_SIMILAR_QUESTIONS),
  excludeSessionId: visibleText(128).optional(),
  /** Record the question (type "question") after looking up similar ones; a repeat is counted instead. */
  record: z.boolean().default(true),
  category: visibleText(64).optional(),
  sessionId: visibleText(128).optional(),
  importance: z.number().min(0).max(1).default(0.5),
});

/** POST /v1/questions/similar: earlier questions like this one (seed 000), then records it. */
export const questions = new Hono<AppEnv>().post("/similar", memoryDocs.similar, validate("json", similarSchema), async (c) => {
  const args = c.req.valid("json");
  const services = c.get("services");
  const { tenantId } = c.get("principal");
  if (!informationNeed(args.text).need) return c.json({ isQuestion: false, questions: [], degraded: [] });
  c.get("log").info("similar_questions.question_detected", { scope: args.scope });

  const memory: NewMemory = {
    scope: args.scope,
    content: args.text,
    memoryType: "question",
    category: args.category,
    importance: args.importance,
    tags: [],
    sessionId: args.sessionId,
  };
  // Recording checks for a repeat first: that read runs beside the search's (the text is embedded
  // once for both, src/adapters/embeddings/cached.ts), and only the write itself waits for the search.
  const repeatCheck = args.record ? findRepeatedQuestion(services, tenantId, memory) : null;
  const { questions: found, degraded } = await findSimilarQuestions(services, tenantId, {
    scope: args.scope,
    text: args.text,
    limit: args.limit,
    excludeSessionId: args.excludeSessionId ?? args.sessionId,
  });
  if (found.length > 0) c.get("log").info("similar_questions.added", { count: found.length, topSimilarity: found[0]!.similarity });
  else c.get("log").info("similar_questions.none_found");

  let recorded: { id: string; deduplicated: boolean } | undefined;
  if (repeatCheck) {
    const stored = await createMemory(services, tenantId, memory, repeatCheck);
    recorded = { id: stored.memory.id, deduplicated: !stored.created };
  }
  const now = services.clock.now();
  afterResponse(c, "similar_questions.metrics", () =>
    services.db.batch([
      ...recallStatements(
        services.db,
        tenantId,
        found.map((q) => q.id).filter((id) => id !== recorded?.id),
        now,
      ),
      ...metricStatements(services.db, tenantId, now, [
        { name: "similar_lookup" },
        ...(found.length > 0 ? [{ name: "similar_hit" }] : []),
        ...(found[0]?.similarity != null ? [{ name: "similarity", value: found[0].similarity }] : []),
      ]),
    ]),
  );
  return c.json({ isQuestion: true, questions: found, ...(recorded ? { recorded } : {}), degraded });
});
