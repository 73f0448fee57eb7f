import { Hono } from "hono";
import { z } from "zod";
import { listCards } from "../../cards/store";
import type { AppEnv } from "../context";
import { validate } from "../validation";
import { scopeSchema } from "./shared";
import { memoryDocs } from "../docs/memories";

const cardQuerySchema = z.strictObject({
  scope: scopeSchema,
  entity: z.string().trim().min(1).max(100).optional(),
  slot: z.string().trim().min(1).max(100).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});

/** GET /v1/cards?scope=&entity=&slot=: a scope's cards, current and past, newest first. */
export const cards = new Hono<AppEnv>().get("/", memoryDocs.cards, validate("query", cardQuerySchema), async (c) => {
  const found = await listCards(c.get("services").db, c.get("principal").tenantId, c.req.valid("query"));
  return c.json({ cards: found });
});
