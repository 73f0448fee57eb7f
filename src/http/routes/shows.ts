/**
 * Per-show novelty memory. The Worker validates, embeds every text of a request in ONE batch
 * call, and hands texts + vectors + the calibration + its clock's "now" to the show's Durable
 * Object (one per tenant and show id) over RPC. If the embedder is down the request ends here
 * with a 503, before the object is touched, so nothing is half-written.
 */
import { Hono } from "hono";
import { z } from "zod";
import { keyLabel } from "../../features/auth/key-label";
import { NOVELTY_CONFIG_LIMITS } from "../../core/novelty/novelty-config";
import { listShows } from "../../features/shows/archive";
import type { AppEnv } from "../context";
import { timeAndIdPosition, decodeCursor, encodeCursor, pageQuery, toPage } from "../pagination";
import { idempotent } from "../idempotency";
import { afterResponse } from "../log";
import { validate, visibleText } from "../validation";
import { showDocs } from "../docs/shows";
import { rankBody } from "./show-bodies";
import { archive, embedAll, round, show, showIdSchema, showParam, unwrap } from "./show-object";
import { showRankings } from "./show-rankings";

export { showParam };

export const MAX_CANDIDATES = 50;
export const MAX_QUESTION_CHARS = 1000;
export const MAX_TOP_N = 50;

export const questionParam = z.object({ showId: showIdSchema, id: z.string().min(1).max(100) });

const text = visibleText(MAX_QUESTION_CHARS);
const model = visibleText(64);
const topics = z.array(visibleText(64)).max(8).optional();

export const rankSchema = z.strictObject({
  candidates: z
    .array(z.strictObject({ text, model, confidence: z.number().min(0).max(1).default(0.5), topics }))
    .min(1)
    .max(MAX_CANDIDATES),
  topN: z.number().int().min(1).max(MAX_TOP_N).default(5),
  record: z.boolean().default(true),
});
const checkSchema = z.strictObject({ text });
const questionsSchema = z.strictObject({
  questions: z
    .array(z.strictObject({ text, model: model.optional(), confidence: z.number().min(0).max(1).optional(), topics }))
    .min(1)
    .max(MAX_CANDIDATES),
});
const refreshSchema = z
  .strictObject({
    questionIds: z.array(z.string().min(1).max(100)).min(1).max(500).optional(),
    topic: visibleText(200).optional(),
  })
  .refine((v) => (v.questionIds === undefined) !== (v.topic === undefined), { message: "send either questionIds or topic" });
const range = (key: keyof typeof NOVELTY_CONFIG_LIMITS) =>
  z.number().min(NOVELTY_CONFIG_LIMITS[key].min).max(NOVELTY_CONFIG_LIMITS[key].max);
const configSchema = z
  .strictObject({
    enabled: z.boolean().optional(),
    maxCacheSize: range("maxCacheSize").int().optional(),
    similarityThreshold: range("similarityThreshold").optional(),
    penaltySimilarityThreshold: range("penaltySimilarityThreshold").optional(),
    noveltyBoostThreshold: range("noveltyBoostThreshold").optional(),
    decayTimeConstantMinutes: range("decayTimeConstantMinutes").optional(),
    retentionDays: range("retentionDays").int().optional(),
  })
  .refine((v) => Object.keys(v).length > 0, { message: "send at least one setting" });
const historyQuery = pageQuery(100, 500).extend({
  minutes: z.coerce
    .number()
    .int()
    .min(1)
    .max(365 * 24 * 60)
    .default(30),
});
const historyPosition = z.tuple([z.number().int(), z.number().int()]);
const listQuery = pageQuery(50, 200);

export const shows = new Hono<AppEnv>()
  .get("/", showDocs.list, validate("query", listQuery), async (c) => {
    const { limit, cursor } = c.req.valid("query");
    const after = cursor === undefined ? undefined : decodeCursor("shows", cursor, timeAndIdPosition);
    const found = await listShows(c.get("services").db, c.get("principal").tenantId, { limit: limit + 1, after });
    const page = toPage("shows", found, limit, (s) => [s.lastActivityAt, s.showId]);
    return c.json({ shows: page.rows, nextCursor: page.nextCursor });
  })
  .post("/:showId/rank", showDocs.rank, validate("param", showParam), validate("json", rankSchema), async (c) => {
    const { embedder, clock, home } = c.get("services");
    const body = c.req.valid("json");
    const [embedded, by] = await Promise.all([
      embedAll(
        embedder,
        body.candidates.map((x) => x.text),
      ),
      keyLabel(home, c.get("principal")),
    ]);
    const now = clock.now();
    const result = unwrap(
      await show(c).rank({
        candidates: body.candidates.map((x, i) => ({ ...x, vector: embedded[i]!.vector })),
        topN: body.topN,
        record: body.record,
        now,
        embedding: embedder.scale,
        by,
      }),
    );
    // The listing row is not the record (the object is), and the answer does not need it: written after.
    if (body.record) afterResponse(c, "show_archive", () => archive(c, result.summary, now));
    return c.json(rankBody({ ...result, embedding: { model: embedder.model, calibrated: embedder.scale.calibration !== null } }));
  })
  .post("/:showId/check", showDocs.check, validate("param", showParam), validate("json", checkSchema), async (c) => {
    const { embedder, clock } = c.get("services");
    const [embedded] = await embedAll(embedder, [c.req.valid("json").text]);
    const r = await show(c).check(embedded!, clock.now(), embedder.scale);
    return c.json({ ...r, similarity: round(r.similarity), rawCosine: round(r.rawCosine), novelty: round(r.novelty) });
  })
  .post(
    "/:showId/questions",
    showDocs.addQuestions,
    validate("param", showParam),
    validate("json", questionsSchema),
    idempotent,
    async (c) => {
      const { embedder, clock } = c.get("services");
      const { questions } = c.req.valid("json");
      const embedded = await embedAll(
        embedder,
        questions.map((q) => q.text),
      );
      const now = clock.now();
      const result = unwrap(
        await show(c).addQuestions(
          questions.map((q, i) => ({ ...q, vector: embedded[i]!.vector })),
          now,
          embedder.model,
        ),
      );
      await archive(c, result.summary, now);
      return c.json({ ids: result.ids, questionCount: result.summary.questionCount }, 201);
    },
  )
  .post("/:showId/questions/:id/used", showDocs.used, validate("param", questionParam), async (c) => {
    const now = c.get("services").clock.now();
    const result = unwrap(await show(c).markUsed(c.req.valid("param").id, now));
    await archive(c, result.summary, now);
    return c.json({ id: result.id, wasUsed: true });
  })
  .post("/:showId/refresh", showDocs.refresh, validate("param", showParam), validate("json", refreshSchema), async (c) => {
    const result = unwrap(await show(c).refresh(c.req.valid("json"), c.get("services").clock.now()));
    return c.json({ forgotten: result.forgotten.map((q) => q.id), count: result.forgotten.length, questions: result.forgotten });
  })
  .get("/:showId/history", showDocs.history, validate("param", showParam), validate("query", historyQuery), async (c) => {
    const { minutes, limit, cursor } = c.req.valid("query");
    const after = cursor === undefined ? undefined : decodeCursor("show-history", cursor, historyPosition);
    const { questions, next } = await show(c).history(minutes, c.get("services").clock.now(), { limit, after });
    return c.json({
      questions: questions.map((q) => ({ ...q, novelty: round(q.novelty) })),
      nextCursor: next === null ? null : encodeCursor("show-history", next),
    });
  })
  .get("/:showId/status", showDocs.status, validate("param", showParam), async (c) => {
    const s = await show(c).status(c.get("services").clock.now());
    return c.json({ showId: c.req.valid("param").showId, ...s, averageNovelty: round(s.averageNovelty) });
  })
  .put("/:showId/config", showDocs.config, validate("param", showParam), validate("json", configSchema), async (c) => {
    const config = unwrap(await show(c).updateConfig(c.req.valid("json")));
    return c.json({ config });
  })
  .post("/:showId/end", showDocs.end, validate("param", showParam), async (c) => {
    const now = c.get("services").clock.now();
    const summary = unwrap(await show(c).end(now));
    await archive(c, summary, now);
    return c.json({ showId: c.req.valid("param").showId, ...summary, averageNovelty: round(summary.averageNovelty) });
  })
  .route("/", showRankings);
