import { Hono } from "hono";
import { z } from "zod";
import { analyzeQuery } from "../../core/query/analyze";
import type { AppEnv } from "../context";
import { readsOnly } from "../route-facts";
import { validate, visibleText } from "../validation";
import { memoryDocs } from "../docs/memories";

/** Longest text accepted; the rules read the first MAX_ANALYZED_CHARS of it and say `truncated`. */
export const MAX_ANALYZE_INPUT_CHARS = 20_000;

export const analyzeSchema = z.strictObject({
  text: z.string().max(MAX_ANALYZE_INPUT_CHARS),
  sessionId: visibleText(128).optional(),
});

/** POST /v1/query/analyze: the same query understanding the search paths use, for hooks and CLIs. */
export const query = new Hono<AppEnv>().post("/analyze", memoryDocs.analyze, readsOnly, validate("json", analyzeSchema), async (c) => {
  const { text } = c.req.valid("json");
  return c.json(await analyzeQuery(c.get("services").cache, text));
});
