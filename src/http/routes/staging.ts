/** /v1/staging: MERGE and NEW proposals of the ticket pipeline, for review. Approving or rejecting needs an admin key. */
import { Hono } from "hono";
import { z } from "zod";
import { stagingStatuses } from "../../platform/db/schema";
import { PipelineUnavailable } from "../../features/tickets/match";
import { askedBy, redecide } from "../../features/tickets/redecide";
import {
  approveStaging,
  getStaging,
  listStaging,
  rejectStaging,
  type ReviewResult,
  stagingCounts,
  toDecision,
  toStaging,
} from "../../features/tickets/staging";
import type { AppEnv } from "../context";
import { AppError } from "../errors";
import { requireAdmin } from "../middleware/require-admin";
import { afterSeq, cursorParam, seqCursor } from "../pagination";
import { idempotent } from "../idempotency";
import { validate, visibleText } from "../validation";
import { idParam } from "../schemas/shared";
import { ticketDocs } from "../docs/tickets";

const listQuery = z.strictObject({
  status: z.enum(stagingStatuses).default("pending"),
  limit: z.coerce.number().int().min(1).max(200).default(50),
  cursor: cursorParam,
});
const approveSchema = z.strictObject({
  question: visibleText(1000).optional(),
  answer: visibleText(20_000).optional(),
  allowDuplicate: z.boolean().optional(),
});
const rejectSchema = z.strictObject({ reason: visibleText(500) });

function answer(result: ReviewResult) {
  if (result.ok) return toStaging(result.value);
  if (result.error === "not_found") throw new AppError("NOT_FOUND", "No such staging item");
  if (result.error === "faq_gone") throw new AppError("CONFLICT", "The FAQ this item merges into no longer exists; reject it");
  if (typeof result.error === "object") {
    const { duplicateOf } = result.error;
    throw new AppError(
      "DUPLICATE_FAQ",
      `FAQ ${duplicateOf.id} already asks this question ("${duplicateOf.question}"); reject the item, or approve with allowDuplicate: true`,
      undefined,
      undefined,
      { duplicateOf: { ...duplicateOf, similarity: Number(duplicateOf.similarity.toFixed(4)) } },
    );
  }
  throw new AppError("CONFLICT", "This staging item was already reviewed");
}

/** Deciding again needs the embedder and the index: while they are down, say so (503) rather than decide on less. */
async function decidingAgain<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    if (error instanceof PipelineUnavailable)
      throw new AppError("UNAVAILABLE", "The embedder or vector index is unavailable, so the item cannot be decided again; retry shortly");
    throw error;
  }
}

export const staging = new Hono<AppEnv>()
  .get("/", ticketDocs.stagingList, validate("query", listQuery), async (c) => {
    const { cursor, ...query } = c.req.valid("query");
    const { rows, nextCursor } = await listStaging(c.get("services"), c.get("principal").tenantId, {
      ...query,
      before: afterSeq("staging", cursor),
    });
    return c.json({
      items: rows.map(toStaging),
      nextCursor: seqCursor("staging", nextCursor),
      counts: await stagingCounts(c.get("services"), c.get("principal").tenantId),
    });
  })
  .get("/:id", ticketDocs.stagingRead, validate("param", idParam), async (c) => {
    const row = await getStaging(c.get("services"), c.get("principal").tenantId, c.req.valid("param").id);
    if (!row) throw new AppError("NOT_FOUND", "No such staging item");
    return c.json(toStaging(row));
  })
  .get("/:id/decision", ticketDocs.stagingDecision, validate("param", idParam), async (c) => {
    const services = c.get("services");
    const { tenantId } = c.get("principal");
    const row = await getStaging(services, tenantId, c.req.valid("param").id);
    if (!row) throw new AppError("NOT_FOUND", "No such staging item");
    return c.json(toDecision(row, await decidingAgain(redecide(services, tenantId, askedBy(row), row))));
  })
  .post(
    "/:id/approve",
    ticketDocs.approve,
    requireAdmin,
    validate("param", idParam),
    validate("json", approveSchema),
    idempotent,
    async (c) => {
      const { tenantId, keyId } = c.get("principal");
      return c.json(
        answer(await decidingAgain(approveStaging(c.get("services"), tenantId, c.req.valid("param").id, keyId, c.req.valid("json")))),
      );
    },
  )
  .post(
    "/:id/reject",
    ticketDocs.reject,
    requireAdmin,
    validate("param", idParam),
    validate("json", rejectSchema),
    idempotent,
    async (c) => {
      const { tenantId, keyId } = c.get("principal");
      return c.json(answer(await rejectStaging(c.get("services"), tenantId, c.req.valid("param").id, keyId, c.req.valid("json").reason)));
    },
  );
