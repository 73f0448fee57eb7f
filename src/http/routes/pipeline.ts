/**
 * GET /v1/pipeline/stats: what the ticket pipeline decided, by action and day (src/features/tickets/stats.ts);
 * POST /v1/pipeline/reclean: one page of the upkeep that removes customers' details from FAQ text tickets made (src/features/tickets/reclean.ts).
 */
import { Hono } from "hono";
import { z } from "zod";
import { recleanPipelineText } from "../../features/tickets/reclean";
import { pipelineStats } from "../../features/tickets/stats";
import { requireAdmin } from "../middleware/require-admin";
import type { AppEnv } from "../context";
import { validate } from "../validation";
import { ticketDocs } from "../docs/tickets";

const statsQuery = z.strictObject({ days: z.coerce.number().int().min(1).max(365).default(30) });

const recleanQuery = z.strictObject({ before: z.coerce.number().int().min(1).optional() });

export const pipeline = new Hono<AppEnv>()
  .get("/stats", ticketDocs.stats, validate("query", statsQuery), async (c) => {
    return c.json(await pipelineStats(c.get("services"), c.get("principal").tenantId, c.req.valid("query").days));
  })
  .post("/reclean", ticketDocs.reclean, requireAdmin, validate("query", recleanQuery), async (c) => {
    return c.json(await recleanPipelineText(c.get("services"), c.get("principal").tenantId, c.req.valid("query").before));
  });
