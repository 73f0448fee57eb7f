/**
 * The Postgres adapter of the FAQ store port (seed 002's design): FAQs, variants and versions in
 * Postgres through drizzle + Neon's driver; the question vectors live in the rows (pgvector) and
 * search runs in the database (search.ts). A vector is computed before the write and stored with
 * it; when the embedder fails the row is committed 'pending' all the same (no data lost). Hits,
 * relationships and suggestions live next to the FAQs (hits.ts, relationships.ts, suggestions.ts).
 */
import { err, ok } from "../../../core/base/result";
import { and, count, desc, eq, gt, isNull, lt, sql } from "drizzle-orm";
import type { PgConnection } from "../../../platform/db/pg/client";
import { pgFaqHits, pgFaqs, pgFaqVariants, pgFaqVersions } from "../../../platform/db/pg/schema";
import type { Services } from "../../../platform/ports/services";
import { expandQuery, expansionTerms } from "../../../core/text/expand";
import { ftsDocument } from "../../../core/text/fts";
import type { FaqStore } from "../port";
import { foldText, newFaqRow } from "../store";
import type { FaqRow } from "../types";
import { MAX_VARIANTS_PER_FAQ, newVariantRow } from "../variants";
import { versionCutoff } from "../versions";
import { embedAll } from "./embed";
import { exportFromPostgres } from "./export";
import { postgresHits } from "./hits";
import { postgresPipelineReads } from "./reads";
import { rebuildTermsPostgres } from "./fts-rebuild";
import { markFaqsForReembedPostgres } from "./reembed";
import { reindexPendingPostgres } from "./reindex";
import { postgresRelationships } from "./relationships";
import { importIntoPostgres } from "./import";
import { tagsSchema } from "../json-columns";
import { faqColumns, faqValues, toFaqRow, toFaqVersion, toVariantRow, variantColumns, variantValues } from "./rows";
import { faqValues as faqRowValues } from "../rows";
import { searchFaqs } from "../search";
import { postgresSearchSource, websearchText } from "./search";
import { applyFaqChange } from "../update-rule";
import { postgresSuggestions } from "./suggestions";

export function postgresFaqStore(services: Services, { db }: PgConnection): FaqStore {
  const live = (tenantId: string, id: string) => and(eq(pgFaqs.id, id), eq(pgFaqs.tenantId, tenantId), isNull(pgFaqs.deletedAt));
  const embedOne = (text: string) => embedAll(services, [text]).then((v) => v?.[0] ?? null);

  const get = async (tenantId: string, id: string): Promise<FaqRow | null> => {
    const [row] = await db.select(faqColumns).from(pgFaqs).where(live(tenantId, id));
    return row ? toFaqRow(row) : null;
  };

  const store: FaqStore = {
    backend: "postgres",

    async create(tenantId, by, input) {
      const row = newFaqRow(services, tenantId, by, input);
      const vector = row.index_state === "pending" ? await embedOne(row.question) : null;
      if (vector) row.index_state = "indexed";
      const [inserted] = await db
        .insert(pgFaqs)
        .values({ ...faqValues(row), embedding: vector, embeddingModel: vector ? services.embedder.model : null })
        .returning({ seq: pgFaqs.seq });
      row.seq = inserted?.seq ?? 0;
      return row;
    },

    get,

    async list(tenantId, query) {
      const where = [eq(pgFaqs.tenantId, tenantId), isNull(pgFaqs.deletedAt)];
      if (query.tag !== undefined) where.push(sql`${pgFaqs.tags} @> ${JSON.stringify([query.tag])}::jsonb`);
      if (query.q !== undefined) {
        const text = websearchText(expansionTerms(expandQuery(query.q)));
        if (text === null) return { rows: [], more: false };
        where.push(sql`${pgFaqs.search} @@ websearch_to_tsquery('recall_fts', ${text})`);
      }
      if (query.beforeSeq !== undefined) where.push(lt(pgFaqs.seq, query.beforeSeq));
      const rows = await db
        .select(faqColumns)
        .from(pgFaqs)
        .where(and(...where))
        .orderBy(desc(pgFaqs.seq))
        .limit(query.limit + 1);
      return { rows: rows.slice(0, query.limit).map(toFaqRow), more: rows.length > query.limit };
    },

    async update(tenantId, id, by, change, version = { changeType: "update" }) {
      const current = await get(tenantId, id);
      if (!current) return err("not_found");
      const now = services.clock.now();
      const update = applyFaqChange(current, change, { by, now, canEmbed: (text) => services.embedder.canEmbed(text) });
      if (!update) return ok({ row: current, contentChanged: false, questionChanged: false });
      const { next, contentChanged, questionChanged } = update;
      let vector: number[] | null = null;
      if (questionChanged) {
        vector = next.index_state === "pending" ? await embedOne(next.question) : null;
        if (vector) next.index_state = "indexed";
      }
      const { tags, metadata } = faqRowValues(next);
      // Interactive transaction: the version copies the row as it is under the row lock, then the row changes.
      const updated = await db.transaction(async (tx) => {
        const [locked] = await tx.select(faqColumns).from(pgFaqs).where(live(tenantId, id)).for("update");
        if (!locked) return null;
        if (contentChanged) {
          await tx.insert(pgFaqVersions).values({
            tenantId,
            faqId: id,
            versionNumber: locked.version,
            question: locked.question,
            answer: locked.answer,
            tags: locked.tags,
            changeType: version.changeType,
            changeReason: version.reason ?? null,
            changedBy: by,
            changedAt: now,
          });
        }
        const [row] = await tx
          .update(pgFaqs)
          .set({
            question: next.question,
            answer: next.answer,
            tags,
            metadata,
            updatedBy: by,
            updatedAt: now,
            version: sql`${pgFaqs.version} + ${contentChanged ? 1 : 0}`,
            questionTerms: ftsDocument(next.question),
            answerTerms: ftsDocument(next.answer),
            ...(questionChanged
              ? {
                  indexState: next.index_state,
                  indexAttempts: 0,
                  embedding: vector,
                  embeddingModel: vector ? services.embedder.model : null,
                }
              : {}),
          })
          .where(live(tenantId, id))
          .returning(faqColumns);
        return row ?? null;
      });
      if (!updated) return err("not_found");
      return ok({ row: toFaqRow(updated), contentChanged, questionChanged });
    },

    async softDelete(tenantId, id, by) {
      const deleted = await db
        .update(pgFaqs)
        .set({ deletedAt: services.clock.now(), deletedBy: by })
        .where(live(tenantId, id))
        .returning({ id: pgFaqs.id });
      return deleted.length > 0;
    },

    async addVariant(tenantId, faqId, by, input) {
      const faq = await get(tenantId, faqId);
      if (!faq) return err("not_found");
      const row = newVariantRow(services, tenantId, faqId, by, input);
      if (row.normalized_text === foldText(faq.question)) return err("duplicate");
      const [counted] = await db
        .select({ n: count() })
        .from(pgFaqVariants)
        .where(and(eq(pgFaqVariants.tenantId, tenantId), eq(pgFaqVariants.faqId, faqId)));
      if ((counted?.n ?? 0) >= MAX_VARIANTS_PER_FAQ) return err("too_many");
      const vector = row.index_state === "pending" ? await embedOne(row.variant_text) : null;
      if (vector) row.index_state = "indexed";
      const inserted = await db
        .insert(pgFaqVariants)
        .values({ ...variantValues(row), embedding: vector, embeddingModel: vector ? services.embedder.model : null })
        .onConflictDoNothing()
        .returning({ seq: pgFaqVariants.seq });
      if (inserted.length === 0) return err("duplicate");
      row.seq = inserted[0]!.seq;
      return ok(row);
    },

    async listVariants(tenantId, faqId, page) {
      const query = db
        .select(variantColumns)
        .from(pgFaqVariants)
        .where(and(eq(pgFaqVariants.tenantId, tenantId), eq(pgFaqVariants.faqId, faqId), gt(pgFaqVariants.seq, page?.afterSeq ?? 0)))
        .orderBy(pgFaqVariants.seq);
      const rows = page ? await query.limit(page.limit) : await query;
      return rows.map(toVariantRow);
    },

    async deleteVariant(tenantId, variantId) {
      const ofLiveFaq = sql`EXISTS (SELECT 1 FROM ${pgFaqs} WHERE ${pgFaqs.id} = ${pgFaqVariants.faqId} AND ${pgFaqs.deletedAt} IS NULL)`;
      const removed = await db
        .delete(pgFaqVariants)
        .where(and(eq(pgFaqVariants.id, variantId), eq(pgFaqVariants.tenantId, tenantId), ofLiveFaq))
        .returning({ id: pgFaqVariants.id, faqId: pgFaqVariants.faqId });
      if (removed.length === 0) return false;
      // Its hits still count for the FAQ; they no longer name a variant that is gone.
      await db
        .update(pgFaqHits)
        .set({ variantId: null })
        .where(and(eq(pgFaqHits.tenantId, tenantId), eq(pgFaqHits.faqId, removed[0]!.faqId), eq(pgFaqHits.variantId, variantId)));
      return true;
    },

    async listVersions(tenantId, faqId, page) {
      const below = page.before === undefined ? undefined : lt(pgFaqVersions.versionNumber, page.before);
      const rows = await db
        .select()
        .from(pgFaqVersions)
        .where(and(eq(pgFaqVersions.tenantId, tenantId), eq(pgFaqVersions.faqId, faqId), below))
        .orderBy(desc(pgFaqVersions.versionNumber))
        .limit(page.limit);
      return rows.map(toFaqVersion);
    },

    async rollback(tenantId, faqId, versionNumber, by, reason) {
      const [target] = await db
        .select({ question: pgFaqVersions.question, answer: pgFaqVersions.answer, tags: pgFaqVersions.tags })
        .from(pgFaqVersions)
        .innerJoin(pgFaqs, eq(pgFaqs.id, pgFaqVersions.faqId))
        .where(
          and(
            eq(pgFaqVersions.tenantId, tenantId),
            eq(pgFaqVersions.faqId, faqId),
            eq(pgFaqVersions.versionNumber, versionNumber),
            isNull(pgFaqs.deletedAt),
          ),
        );
      if (!target) return err("version_not_found");
      const result = await store.update(
        tenantId,
        faqId,
        by,
        { question: target.question, answer: target.answer, tags: tagsSchema.parse(target.tags) },
        { changeType: "rollback", reason: reason ?? `rollback to version ${versionNumber}` },
      );
      return result.ok ? ok(result.value.row) : err("not_found");
    },

    search: (tenantId, args) => searchFaqs(services, args, (plan) => postgresSearchSource(services, db, tenantId, plan)),
    import: (tenantId, by, items) => importIntoPostgres(services, db, tenantId, by, items),
    export: (tenantId) => exportFromPostgres(db, tenantId),
    reindexPending: (batchSize) => reindexPendingPostgres(services, db, batchSize),
    markForReembed: (tenantId, model) => markFaqsForReembedPostgres(db, tenantId, model),
    rebuildFullText: (tenantId, collection, after, batchSize) => rebuildTermsPostgres(db, tenantId, collection, after, batchSize),
    async pruneVersions(now) {
      const deleted = await db
        .delete(pgFaqVersions)
        .where(lt(pgFaqVersions.changedAt, versionCutoff(now)))
        .returning({ id: pgFaqVersions.id });
      return { deleted: deleted.length };
    },

    ...postgresPipelineReads(db),
    ...postgresHits(db, services),
    ...postgresRelationships(db, services),
    // Accepting a suggestion adds a variant through this store (a late-bound call: `store` is being built).
    ...postgresSuggestions(db, services, { addVariant: (...args) => store.addVariant(...args) }),
  };
  return store;
}
