/** GET /v1/pipeline/stats: what the ticket pipeline decided, by action and day (src/tickets/stats.ts). */
import { Hono } from "hono";
import { z } from "zod";
import { pipelineStats } from "../../tickets/stats";
import type { AppEnv } from "../context";
import { validate } from "../validation";
import { ticketDocs } from "../docs/tickets";

const statsQuery = z.strictObject({ days: z.coerce.number().int().min(1).max(365).default(30) });

export const pipeline = new Hono<AppEnv>().get("/stats", ticketDocs.stats, validate("query", statsQuery), async (c) => {
  return c.json(await pipelineStats(c.get("services"), c.get("principal").tenantId, c.req.valid("query").days));
});
