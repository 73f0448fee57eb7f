import { Hono } from "hono";
import { listCards } from "../../features/cards/store";
import type { AppEnv } from "../context";
import { afterCreated, createdAtPosition, pageQuery, toPage } from "../pagination";
import { validate, visibleText } from "../validation";
import { scopeSchema } from "../schemas/shared";
import { memoryDocs } from "../docs/memories";

const cardQuerySchema = pageQuery(50, 200).extend({
  scope: scopeSchema,
  entity: visibleText(100).optional(),
  slot: visibleText(100).optional(),
});

/** GET /v1/cards?scope=&entity=&slot=&limit=&cursor=: a scope's cards, current and past, newest first. */
export const cards = new Hono<AppEnv>().get("/", memoryDocs.cards, validate("query", cardQuerySchema), async (c) => {
  const { cursor, limit, ...filter } = c.req.valid("query");
  const found = await listCards(c.get("services").db, c.get("principal").tenantId, {
    ...filter,
    limit: limit + 1,
    after: afterCreated("cards", cursor),
  });
  const page = toPage("cards", found, limit, createdAtPosition);
  return c.json({ cards: page.rows, nextCursor: page.nextCursor });
});
