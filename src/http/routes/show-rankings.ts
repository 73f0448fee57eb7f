/**
 * A show's stored rankings (what `rank` answered, so a screen can show a ranking again and list
 * what the producer's AI ranked) and the producer's override of a filtered question ("use
 * anyway", seed 004), which is also a calibration label: the producer says the two questions are
 * different questions on one topic.
 */
import { Hono } from "hono";
import { z } from "zod";
import { keyLabel } from "../../features/auth/key-label";
import { overrideLabelBy, storeOverrideLabel } from "../../features/self-fit/uploaded";
import type { AppEnv } from "../context";
import { showRankingDocs } from "../docs/show-rankings";
import { idempotent } from "../idempotency";
import { validate, visibleText } from "../validation";
import { overrideBody, rankingDetailBody, rankingSummaryBody } from "./show-bodies";
import { archive, embedAll, show, showIdSchema, showParam, unwrap } from "./show-object";

const MAX_QUESTION_CHARS = 1000;
const id = z.string().min(1).max(100);
const rankingParam = z.object({ showId: showIdSchema, rankingId: id });
const listQuery = z.object({ limit: z.coerce.number().int().min(1).max(50).default(10) });
const overrideSchema = z.strictObject({
  text: visibleText(MAX_QUESTION_CHARS),
  model: visibleText(64).optional(),
  againstQuestionId: id,
  rankingId: id.optional(),
});

/** What an override teaches the calibration: the producer took these for different questions on one topic. */
const OVERRIDE_LABEL = "related";

export const showRankings = new Hono<AppEnv>()
  .get("/:showId/rankings", showRankingDocs.list, validate("param", showParam), validate("query", listQuery), async (c) => {
    const rankings = await show(c).rankings(c.req.valid("query").limit);
    return c.json({ rankings: rankings.map(rankingSummaryBody) });
  })
  .get("/:showId/rankings/:rankingId", showRankingDocs.read, validate("param", rankingParam), async (c) => {
    const ranking = unwrap(await show(c).ranking(c.req.valid("param").rankingId));
    return c.json(rankingDetailBody(ranking));
  })
  .post(
    "/:showId/overrides",
    showRankingDocs.override,
    validate("param", showParam),
    validate("json", overrideSchema),
    idempotent,
    async (c) => {
      const { embedder, clock, home } = c.get("services");
      const principal = c.get("principal");
      const body = c.req.valid("json");
      const [[embedded], by] = await Promise.all([embedAll(embedder, [body.text]), keyLabel(home, principal)]);
      const now = clock.now();
      const result = unwrap(
        await show(c).override({
          ...embedded!,
          model: body.model ?? null,
          againstQuestionId: body.againstQuestionId,
          rankingId: body.rankingId ?? null,
          by,
          now,
          embeddingModel: embedder.model,
        }),
      );
      await archive(c, result.summary, now);
      // A label only for a pair the show really filtered (a ranking's candidate): without rankingId the text could be anything.
      const { override } = result;
      const createdBy = overrideLabelBy(principal.role, override.by);
      const label = { a: override.text, b: override.againstQuestion, label: OVERRIDE_LABEL } as const;
      const stored = body.rankingId !== undefined && (await storeOverrideLabel(home, principal.tenantId, label, createdBy, now));
      return c.json(
        { override: overrideBody(override), created: result.created, label: stored ? { ...label, createdBy } : null },
        result.created ? 201 : 200,
      );
    },
  );
