import { Hono } from "hono";
import { z } from "zod";
import { memoryTypes } from "../../platform/db/schema";
import { searchMemories } from "../../features/memories/search";
import { createMemory, deleteMemory, getMemory } from "../../features/memories/store";
import type { AppEnv } from "../context";
import { AppError } from "../errors";
import { idempotent } from "../idempotency";
import { readsOnly } from "../route-facts";
import { validate, visibleText } from "../validation";
import { idParam, scopeSchema } from "../schemas/shared";
import { memoryDocs } from "../docs/memories";

/** Longest memory content accepted, in characters. */
export const MAX_MEMORY_CHARS = 8000;
/** Longest search query accepted, in characters. */
export const MAX_QUERY_CHARS = 2000;
export const MAX_SEARCH_LIMIT = 50;

export const newMemorySchema = z.strictObject({
  scope: scopeSchema,
  content: visibleText(MAX_MEMORY_CHARS),
  memoryType: z.enum(memoryTypes),
  category: visibleText(64).optional(),
  importance: z.number().min(0).max(1).default(0.5),
  tags: z.array(visibleText(64)).max(32).default([]),
  sessionId: visibleText(128).optional(),
});

export const searchSchema = z.strictObject({
  scope: scopeSchema,
  query: visibleText(MAX_QUERY_CHARS),
  limit: z.number().int().min(1).max(MAX_SEARCH_LIMIT).default(10),
  memoryTypes: z.array(z.enum(memoryTypes)).min(1).max(memoryTypes.length).optional(),
  /** Overrides of the hybrid weights (src/core/ranking/hybrid.ts); omitted ones keep their defaults. */
  weights: z
    .strictObject({
      vector: z.number().min(0).max(1),
      text: z.number().min(0).max(1),
      recency: z.number().min(0).max(1),
      frequency: z.number().min(0).max(1),
      importance: z.number().min(0).max(1),
    })
    .partial()
    .optional(),
});

export const memories = new Hono<AppEnv>()
  .post("/", memoryDocs.create, validate("json", newMemorySchema), idempotent, async (c) => {
    const { memory, created } = await createMemory(c.get("services"), c.get("principal").tenantId, c.req.valid("json"));
    return created ? c.json(memory, 201) : c.json({ ...memory, deduplicated: true }, 200);
  })
  .post("/search", memoryDocs.search, readsOnly, validate("json", searchSchema), async (c) => {
    const found = await searchMemories(c.get("services"), c.get("principal").tenantId, c.req.valid("json"));
    return c.json({
      results: found.results.map((m) => ({
        id: m.id,
        content: m.content,
        memoryType: m.memoryType,
        score: m.score,
        similarity: m.similarity,
        rawCosine: m.rawCosine,
        matchedBy: m.matchedBy,
        createdAt: m.createdAt,
        endedAt: m.endedAt === null ? null : new Date(m.endedAt).toISOString(),
      })),
      degraded: found.degraded,
    });
  })
  .get("/:id", memoryDocs.read, validate("param", idParam), async (c) => {
    const memory = await getMemory(c.get("services").db, c.get("principal").tenantId, c.req.valid("param").id);
    if (!memory) throw new AppError("NOT_FOUND", "No such memory");
    return c.json(memory);
  })
  .delete("/:id", memoryDocs.remove, validate("param", idParam), async (c) => {
    const deleted = await deleteMemory(c.get("services"), c.get("principal").tenantId, c.req.valid("param").id);
    if (!deleted) throw new AppError("NOT_FOUND", "No such memory");
    return c.body(null, 204);
  });
