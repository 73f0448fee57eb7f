/** /v1/faqs: the FAQ knowledge base (seed 002 §9). Handlers are thin; the work is in src/features/faqs/. */
import { type Context, Hono } from "hono";
import { z } from "zod";
import { MAX_IMPORT_LINES } from "../../features/faqs/import";
import { readableScores } from "../../features/faqs/relevance";
import { faqStore } from "../../features/faqs/select";
import { exportNdjson, importLines } from "../../features/faqs/ndjson";
import { toFaq } from "../../features/faqs/store";
import type { FaqRow } from "../../features/faqs/types";
import { FAQ_SEARCH } from "../../features/faqs/search-settings";
import { toVariant } from "../../features/faqs/variants";
import type { Services } from "../../platform/ports/services";
import type { AppEnv } from "../context";
import { AppError } from "../errors";
import { afterResponse } from "../log";
import { afterSeq, decodeCursor, encodeCursor, pageQuery, toPage } from "../pagination";
import { idempotent } from "../idempotency";
import { readsOnly, takesNdjson } from "../route-facts";
import { issueDetails, unpairedSurrogate, validate, validationFailed, visibleText } from "../validation";
import {
  importLineSchema,
  listFaqQuerySchema,
  newFaqSchema,
  newRelationshipSchema,
  newVariantSchema,
  patchFaqSchema,
  rollbackParams,
  searchFaqSchema,
} from "../schemas/faqs";
import { idParam } from "../schemas/shared";
import { faqDocs } from "../docs/faqs";

type ImportLine = z.output<typeof importLineSchema>;
import { describeBody, describeOptionalJson } from "../openapi/describe";

const NDJSON = /^application\/x-ndjson\s*(?:;|$)/i;
const variantParam = z.object({ variantId: z.string().min(1).max(100) });
const versionsQuery = pageQuery(20, 100);
const versionPosition = z.tuple([z.number().int().min(1)]);
const variantsQuery = pageQuery(50, 200);
const limitQuery = z.strictObject({ limit: z.coerce.number().int().min(1).max(200).default(50) });
const usageQuery = z.strictObject({
  days: z.coerce.number().int().min(1).max(90).default(30),
  limit: z.coerce.number().int().min(1).max(50).default(10),
});
const hitsQuery = z.strictObject({ days: z.coerce.number().int().min(1).max(90).default(30) });
const rollbackSchema = z.strictObject({ changeReason: visibleText(500).optional() });
const resolveSchema = z.strictObject({
  /** The FAQ the variant goes to: the suggestion's top FAQ (default) or its alternate. */
  faqId: z.string().min(1).max(100).optional(),
  variantText: visibleText(1000).optional(),
});

/** How many variants and links the FAQ's detail embeds; the rest is paged by GET /v1/faqs/:id/variants and /related. */
export const DETAIL_VARIANTS = 50;
export const DETAIL_RELATED = 20;

/** The detail model of seed §9.2: the FAQ with its first variants, related FAQs and stats. */
async function detail(services: Services, tenantId: string, row: FaqRow) {
  const store = faqStore(services);
  const [variants, related, stats] = await Promise.all([
    store.listVariants(tenantId, row.id, { limit: DETAIL_VARIANTS + 1 }),
    store.listRelated(tenantId, row.id, DETAIL_RELATED + 1),
    store.stats(tenantId, row.id),
  ]);
  const variantPage = toPage("faq-variants", variants, DETAIL_VARIANTS, (v) => [v.seq]);
  return {
    ...toFaq(row),
    variants: variantPage.rows.map(toVariant),
    variantsNextCursor: variantPage.nextCursor,
    related: related.slice(0, DETAIL_RELATED),
    relatedTruncated: related.length > DETAIL_RELATED,
    stats,
  };
}

async function liveFaq(services: Services, tenantId: string, id: string): Promise<FaqRow> {
  const row = await faqStore(services).get(tenantId, id);
  if (!row) throw new AppError("NOT_FOUND", "No such FAQ");
  return row;
}

export const faqs = new Hono<AppEnv>()
  .post("/", faqDocs.create, validate("json", newFaqSchema), idempotent, async (c) => {
    const services = c.get("services");
    const { tenantId, keyId } = c.get("principal");
    const store = faqStore(services);
    const row = await store.create(tenantId, keyId, c.req.valid("json"));
    if (row.index_state === "indexed") await store.refreshAutoRelated(tenantId, row.id, row.question, keyId);
    return c.json(await detail(services, tenantId, row), 201);
  })
  .get("/", faqDocs.list, validate("query", listFaqQuerySchema), async (c) => {
    const args = c.req.valid("query");
    const { rows, more } = await faqStore(c.get("services")).list(c.get("principal").tenantId, {
      tag: args.tag,
      q: args.q,
      beforeSeq: afterSeq("faqs", args.cursor),
      limit: args.limit,
    });
    return c.json({ faqs: rows.map(toFaq), nextCursor: more ? encodeCursor("faqs", [rows.at(-1)!.seq]) : null });
  })
  .get("/export", faqDocs.export, async (c) => {
    c.header("content-type", "application/x-ndjson; charset=utf-8");
    return c.body(await exportNdjson(c.get("services"), c.get("principal").tenantId));
  })
  .post("/search", faqDocs.search, readsOnly, validate("json", searchFaqSchema), async (c) => {
    const services = c.get("services");
    const { tenantId } = c.get("principal");
    const args = c.req.valid("json");
    if (args.weights && (args.weights.bm25 ?? FAQ_SEARCH.weights.bm25) === 0 && (args.weights.vector ?? FAQ_SEARCH.weights.vector) === 0) {
      throw validationFailed([{ path: "weights", message: "at least one weight must be above 0" }]);
    }
    const store = faqStore(services);
    const found = await store.search(tenantId, args);
    const { sessionId } = args;
    if (sessionId) afterResponse(c, "faq_hits", () => store.recordHits(tenantId, sessionId, args.query, found.results));
    afterResponse(c, "faq_suggestion", () => store.recordSuggestion(tenantId, args.query, found.results));
    const { embedMs, listsMs, rowsMs, totalMs } = found.timing;
    c.header("server-timing", `embed;dur=${embedMs}, lists;dur=${listsMs}, rows;dur=${rowsMs}, search;dur=${totalMs - embedMs}`);
    const scores = readableScores(
      args.query,
      found.results.map((r) => ({ similarity: r.similarity, texts: [r.faq.question, r.matchedVariant?.variantText ?? ""] })),
    );
    return c.json({
      results: found.results.map((r, i) => ({
        id: r.faq.id,
        question: r.faq.question,
        answer: r.faq.answer,
        tags: JSON.parse(r.faq.tags) as string[],
        score: scores[i]!,
        matchType: r.matchType,
        ...(r.matchedVariant ? { matchedVariant: r.matchedVariant } : {}),
        similarity: r.similarity,
      })),
      degraded: found.degraded,
    });
  })
  .post(
    "/import",
    faqDocs.import,
    takesNdjson,
    describeBody(importLineSchema, { mediaType: "application/x-ndjson" }),
    idempotent,
    async (c) => {
      if (!NDJSON.test(c.req.header("content-type") ?? "")) {
        throw new AppError("UNSUPPORTED_MEDIA_TYPE", "Send the import as application/x-ndjson: one FAQ JSON object per line");
      }
      const lines = (await c.req.text()).split("\n");
      const items: (ImportLine & { line: number })[] = [];
      const errors: { line: number; code: string; message: string; details?: unknown; duplicateOf?: unknown }[] = [];
      let count = 0;
      for (const [i, text] of lines.entries()) {
        if (text.trim() === "") continue;
        if (++count > MAX_IMPORT_LINES)
          throw new AppError("PAYLOAD_TOO_LARGE", `At most ${MAX_IMPORT_LINES} FAQs per import; split the file`);
        const line = i + 1;
        let parsed: unknown;
        try {
          parsed = JSON.parse(text);
        } catch {
          errors.push({ line, code: "INVALID_JSON", message: "This line is not JSON" });
          continue;
        }
        const notText = unpairedSurrogate(parsed);
        const result = importLineSchema.safeParse(parsed);
        const problems = notText ? [notText] : result.success ? [] : issueDetails(result.error.issues);
        if (!result.success || notText) {
          const { code, message, details } = validationFailed(problems, "line");
          errors.push({ line, code, message, details });
          continue;
        }
        items.push({ ...result.data, line });
      }
      if (count === 0) throw new AppError("BAD_REQUEST", "The import is empty: send one FAQ JSON object per line");
      const { tenantId, keyId } = c.get("principal");
      const report = await importLines(c.get("services"), tenantId, keyId, items);
      // One list in file order: the lines refused on reading, those asking a question already asked, and those whose ids could not be written.
      errors.push(...report.duplicates, ...report.skipped);
      errors.sort((a, b) => a.line - b.line);
      return c.json({
        imported: report.imported,
        errors,
        counts: {
          imported: report.imported.length,
          failed: errors.length,
          duplicates: report.duplicates.length,
          duplicateVariants: report.duplicateVariants,
          indexed: report.indexed,
          pendingIndex: report.pendingIndex,
          autoLinked: report.autoLinked,
        },
        degraded: report.degraded,
      });
    },
  )
  .get("/stats", faqDocs.allStats, validate("query", limitQuery), async (c) => {
    // Ranked by hits, which move: a top list says when it is cut rather than offering a cursor.
    const { limit } = c.req.valid("query");
    const faqs = await faqStore(c.get("services")).allStats(c.get("principal").tenantId, limit + 1);
    return c.json({ faqs: faqs.slice(0, limit), truncated: faqs.length > limit });
  })
  .get("/usage", faqDocs.usage, validate("query", usageQuery), async (c) => {
    const { days, limit } = c.req.valid("query");
    const services = c.get("services");
    const { tenantId } = c.get("principal");
    const store = faqStore(services);
    // One more never-used FAQ than shown says whether the list is cut.
    const [usage, top] = await Promise.all([store.usage(tenantId, services.clock.now(), days, limit + 1), store.allStats(tenantId, limit)]);
    return c.json({
      days,
      window: { hits: usage.hits, sessions: usage.sessions },
      faqs: { live: usage.liveFaqs, used: usage.liveFaqs - usage.neverUsedFaqs, neverUsed: usage.neverUsedFaqs },
      daily: usage.daily,
      mostUsed: top.filter((f) => f.totalHits > 0),
      trending: usage.trending.slice(0, limit).map((t) => ({ ...t, change: t.thisWeek - t.previousWeek })),
      neverUsed: usage.neverUsed.slice(0, limit),
      neverUsedTruncated: usage.neverUsed.length > limit,
    });
  })
  .get("/suggestions", faqDocs.suggestions, validate("query", limitQuery), async (c) => {
    const { limit } = c.req.valid("query");
    const suggestions = await faqStore(c.get("services")).listSuggestions(c.get("principal").tenantId, limit + 1);
    return c.json({ suggestions: suggestions.slice(0, limit), truncated: suggestions.length > limit });
  })
  .post(
    "/suggestions/:id/:action{accept|dismiss}",
    faqDocs.resolveSuggestion,
    describeOptionalJson(resolveSchema),
    validate("param", z.object({ id: z.string().min(1).max(100), action: z.enum(["accept", "dismiss"]) })),
    idempotent,
    async (c) => {
      const { id, action } = c.req.valid("param");
      const body = await optionalJson(c, resolveSchema);
      const { tenantId, keyId } = c.get("principal");
      const result = await faqStore(c.get("services")).resolveSuggestion(tenantId, id, action, keyId, body);
      if (!result.ok) throw new AppError("NOT_FOUND", "No such open suggestion (or that FAQ is not one of its two)");
      const { variant } = result.value;
      if (!variant) return c.body(null, 204);
      if (!variant.ok) throw variantError(variant.error);
      return c.json(toVariant(variant.value), 201);
    },
  )
  .delete("/variants/:variantId", faqDocs.deleteVariant, validate("param", variantParam), async (c) => {
    const deleted = await faqStore(c.get("services")).deleteVariant(c.get("principal").tenantId, c.req.valid("param").variantId);
    if (!deleted) throw new AppError("NOT_FOUND", "No such variant");
    return c.body(null, 204);
  })
  .delete("/relationships/:id", faqDocs.deleteRelationship, validate("param", idParam), async (c) => {
    const deleted = await faqStore(c.get("services")).deleteRelationship(c.get("principal").tenantId, c.req.valid("param").id);
    if (!deleted) throw new AppError("NOT_FOUND", "No such relationship");
    return c.body(null, 204);
  })
  .get("/:id", faqDocs.read, validate("param", idParam), async (c) => {
    const services = c.get("services");
    const { tenantId } = c.get("principal");
    return c.json(await detail(services, tenantId, await liveFaq(services, tenantId, c.req.valid("param").id)));
  })
  .patch("/:id", faqDocs.update, validate("param", idParam), validate("json", patchFaqSchema), async (c) => {
    const services = c.get("services");
    const { tenantId, keyId } = c.get("principal");
    const { changeReason, ...change } = c.req.valid("json");
    const store = faqStore(services);
    const result = await store.update(tenantId, c.req.valid("param").id, keyId, change, {
      changeType: "update",
      reason: changeReason,
    });
    if (!result.ok) throw new AppError("NOT_FOUND", "No such FAQ");
    const { row, questionChanged } = result.value;
    if (questionChanged && row.index_state === "indexed") await store.refreshAutoRelated(tenantId, row.id, row.question, keyId);
    return c.json(await detail(services, tenantId, row));
  })
  .delete("/:id", faqDocs.remove, validate("param", idParam), async (c) => {
    const { tenantId, keyId } = c.get("principal");
    if (!(await faqStore(c.get("services")).softDelete(tenantId, c.req.valid("param").id, keyId)))
      throw new AppError("NOT_FOUND", "No such FAQ");
    return c.body(null, 204);
  })
  .get("/:id/variants", faqDocs.listVariants, validate("param", idParam), validate("query", variantsQuery), async (c) => {
    const services = c.get("services");
    const { tenantId } = c.get("principal");
    const row = await liveFaq(services, tenantId, c.req.valid("param").id);
    const { limit, cursor } = c.req.valid("query");
    const page = toPage(
      "faq-variants",
      await faqStore(services).listVariants(tenantId, row.id, { limit: limit + 1, afterSeq: afterSeq("faq-variants", cursor) }),
      limit,
      (v) => [v.seq],
    );
    return c.json({ variants: page.rows.map(toVariant), nextCursor: page.nextCursor });
  })
  .post("/:id/variants", faqDocs.addVariant, validate("param", idParam), validate("json", newVariantSchema), idempotent, async (c) => {
    const { tenantId, keyId } = c.get("principal");
    const result = await faqStore(c.get("services")).addVariant(tenantId, c.req.valid("param").id, keyId, c.req.valid("json"));
    if (!result.ok) throw variantError(result.error);
    return c.json(toVariant(result.value), 201);
  })
  .get("/:id/related", faqDocs.listRelated, validate("param", idParam), validate("query", limitQuery), async (c) => {
    const services = c.get("services");
    const { tenantId } = c.get("principal");
    const row = await liveFaq(services, tenantId, c.req.valid("param").id);
    // Ranked (manual first, then by similarity, which auto links refresh): cut with `truncated`, no cursor.
    const { limit } = c.req.valid("query");
    const related = await faqStore(services).listRelated(tenantId, row.id, limit + 1);
    return c.json({ related: related.slice(0, limit), truncated: related.length > limit });
  })
  .post("/:id/related", faqDocs.addRelated, validate("param", idParam), validate("json", newRelationshipSchema), idempotent, async (c) => {
    const { tenantId, keyId } = c.get("principal");
    const { targetFaqId, relationshipType } = c.req.valid("json");
    const result = await faqStore(c.get("services")).createRelationship(
      tenantId,
      c.req.valid("param").id,
      targetFaqId,
      relationshipType,
      keyId,
    );
    if (result.ok) return c.json(result.value, 201);
    switch (result.error) {
      case "self":
        throw new AppError("VALIDATION_FAILED", "An FAQ cannot be linked to itself", [
          { path: "targetFaqId", message: "must differ from the FAQ" },
        ]);
      case "not_found":
        throw new AppError("NOT_FOUND", "No such FAQ");
      case "target_not_found":
        throw new AppError("NOT_FOUND", "No such target FAQ");
      case "target_deleted":
        throw new AppError("CONFLICT", "The target FAQ is deleted");
      case "exists":
        throw new AppError("CONFLICT", "These two FAQs are already linked; delete that link first");
    }
  })
  .get("/:id/versions", faqDocs.versions, validate("param", idParam), validate("query", versionsQuery), async (c) => {
    const services = c.get("services");
    const { tenantId } = c.get("principal");
    const row = await liveFaq(services, tenantId, c.req.valid("param").id);
    const { limit, cursor } = c.req.valid("query");
    const before = cursor === undefined ? undefined : decodeCursor("faq-versions", cursor, versionPosition)[0];
    const versions = await faqStore(services).listVersions(tenantId, row.id, { limit: limit + 1, before });
    const page = toPage("faq-versions", versions, limit, (v) => [v.versionNumber]);
    return c.json({ currentVersion: row.version, versions: page.rows, nextCursor: page.nextCursor });
  })
  .post("/:id/rollback/:version", faqDocs.rollback, describeOptionalJson(rollbackSchema), validate("param", rollbackParams), async (c) => {
    const services = c.get("services");
    const { tenantId, keyId } = c.get("principal");
    const { id, version } = c.req.valid("param");
    const { changeReason } = await optionalJson(c, rollbackSchema);
    await liveFaq(services, tenantId, id);
    const store = faqStore(services);
    const result = await store.rollback(tenantId, id, version, keyId, changeReason);
    if (!result.ok)
      throw new AppError("NOT_FOUND", result.error === "version_not_found" ? `No version ${version} of this FAQ` : "No such FAQ");
    const row = result.value;
    if (row.index_state === "indexed") await store.refreshAutoRelated(tenantId, id, row.question, keyId);
    return c.json(await detail(services, tenantId, row));
  })
  .get("/:id/stats", faqDocs.stats, validate("param", idParam), async (c) => {
    const services = c.get("services");
    const { tenantId } = c.get("principal");
    const row = await liveFaq(services, tenantId, c.req.valid("param").id);
    return c.json({ id: row.id, question: row.question, ...(await faqStore(services).stats(tenantId, row.id)) });
  })
  .get("/:id/hits", faqDocs.hits, validate("param", idParam), validate("query", hitsQuery), async (c) => {
    const services = c.get("services");
    const { tenantId } = c.get("principal");
    const { days } = c.req.valid("query");
    const row = await liveFaq(services, tenantId, c.req.valid("param").id);
    return c.json({ id: row.id, days, daily: await faqStore(services).hitsPerDay(tenantId, row.id, days, services.clock.now()) });
  });

/** A body that may be absent (empty) or `{}`; when present it is validated like any JSON body. */
async function optionalJson<T extends z.ZodType>(c: Context<AppEnv>, schema: T): Promise<z.infer<T>> {
  const raw = await c.req.text();
  let body: unknown;
  try {
    body = raw.trim() === "" ? {} : JSON.parse(raw);
  } catch {
    throw new AppError("INVALID_JSON", "Malformed JSON in request body");
  }
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw validationFailed(issueDetails(parsed.error.issues));
  return parsed.data;
}

function variantError(reason: "not_found" | "duplicate" | "too_many"): AppError {
  if (reason === "not_found") return new AppError("NOT_FOUND", "No such FAQ");
  if (reason === "duplicate") return new AppError("CONFLICT", "This FAQ already has that phrasing (as its question or a variant)");
  return new AppError("CONFLICT", "This FAQ has the most variants allowed");
}
