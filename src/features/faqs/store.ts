/**
 * FAQs (seed 002): a canonical question, its answer, tags and metadata, per tenant. A row and its
 * full-text row are written in one D1 batch; the question's vector is indexed after (the outbox,
 * src/features/indexing/outbox.ts). Every change of question/answer/tags stores the previous content as a
 * version in the same batch (versions.ts). Deletes are soft: the row stays for versions and hits.
 */
import { and, desc, eq, isNull, lt, type SQL, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { drizzle, type DrizzleD1Database } from "drizzle-orm/d1";
import { faqsFts } from "../../platform/db/fts-tables";
import { faqs, faqVariants, faqVersions, type IndexState } from "../../platform/db/schema";
import { newId } from "../../core/base/ids";
import type { Services } from "../../platform/ports/services";
import { ftsDocument } from "../../core/text/fts";
import { FAQ_COLLECTION, FAQ_VARIANT_COLLECTION, indexFaqs } from "./indexing";
import { metadataSchema, tagsSchema } from "./json-columns";
import { faqFields, faqValues, toFaqRow } from "./rows";
import { errorFields } from "../../platform/observe/log";
import { err, ok } from "../../core/base/result";
import type { FaqChange, FaqRow, FaqUpdateResult, NewFaq } from "./types";
import { applyFaqChange } from "./update-rule";

export interface Faq extends NewFaq {
  id: string;
  version: number;
  createdBy: string;
  createdAt: string;
  updatedBy: string;
  updatedAt: string;
  indexState: IndexState;
}

/** The columns of a FaqRow in SQL (the raw FTS5 search, src/features/faqs/search.ts, reads them by name). */
export const FAQ_COLUMNS =
  "seq, id, tenant_id, question, answer, tags, metadata, version, created_by, created_at, updated_by, updated_at, deleted_at, index_state";

/** A stored FAQ as the API answers it; tags and metadata parsed by schema (they left storage as JSON text). */
export function toFaq(row: FaqRow): Faq {
  return {
    id: row.id,
    question: row.question,
    answer: row.answer,
    tags: tagsSchema.parse(JSON.parse(row.tags)),
    metadata: metadataSchema.parse(JSON.parse(row.metadata)),
    version: row.version,
    createdBy: row.created_by,
    createdAt: new Date(row.created_at).toISOString(),
    updatedBy: row.updated_by,
    updatedAt: new Date(row.updated_at).toISOString(),
    indexState: row.index_state,
  };
}

/** Case, width and spacing folded: two texts equal here are the same phrasing (variant duplicates). */
export function foldText(text: string): string {
  return text
    .normalize("NFKC")
    .toLowerCase()
    .replace(/[\s\p{P}]+/gu, " ")
    .trim();
}

/** The queries that insert an FAQ and its full-text row (for one batch: both or neither). */
export function insertFaqQueries(orm: DrizzleD1Database, row: FaqRow): [BatchItem<"sqlite">, BatchItem<"sqlite">] {
  return [
    orm.insert(faqs).values(faqValues(row)),
    // The full-text row's rowid is the FAQ's seq, which the database just assigned: read in the same batch.
    orm.insert(faqsFts).select(
      orm
        .select({
          rowid: faqs.seq,
          question: sql<string>`${ftsDocument(row.question)}`.as("question"),
          answer: sql<string>`${ftsDocument(row.answer)}`.as("answer"),
        })
        .from(faqs)
        .where(eq(faqs.id, row.id)),
    ),
  ];
}

export function newFaqRow(services: Services, tenantId: string, by: string, input: NewFaq): FaqRow {
  const now = services.clock.now();
  return {
    seq: 0,
    id: newId("faq"),
    tenant_id: tenantId,
    question: input.question,
    answer: input.answer,
    tags: JSON.stringify(input.tags),
    metadata: JSON.stringify(input.metadata),
    version: 1,
    created_by: by,
    created_at: now,
    updated_by: by,
    updated_at: now,
    deleted_at: null,
    index_state: services.embedder.canEmbed(input.question) ? "pending" : "lexical_only",
  };
}

/** Commits the FAQ and its full-text row in one batch, then indexes the question's vector. */
export async function createFaq(services: Services, tenantId: string, by: string, input: NewFaq): Promise<FaqRow> {
  const row = newFaqRow(services, tenantId, by, input);
  const orm = drizzle(services.db);
  await orm.batch(insertFaqQueries(orm, row));
  if (row.index_state === "pending") {
    const [state] = await indexFaqs(services, [row]);
    row.index_state = state ?? "pending";
  }
  return row;
}

const liveFaq = (tenantId: string, id: string) => and(eq(faqs.id, id), eq(faqs.tenantId, tenantId), isNull(faqs.deletedAt));

/** A live (not deleted) FAQ of the tenant, or null. */
export async function getFaqRow(db: D1Database, tenantId: string, id: string): Promise<FaqRow | null> {
  const row = await drizzle(db).select(faqFields).from(faqs).where(liveFaq(tenantId, id)).get();
  return row ? toFaqRow(row) : null;
}

/** Any FAQ of the tenant, deleted or not, or null (to tell "deleted" from "never existed"). */
export async function getFaqRowIncludingDeleted(db: D1Database, tenantId: string, id: string): Promise<FaqRow | null> {
  const row = await drizzle(db)
    .select(faqFields)
    .from(faqs)
    .where(and(eq(faqs.id, id), eq(faqs.tenantId, tenantId)))
    .get();
  return row ? toFaqRow(row) : null;
}

/**
 * Live FAQs of one tenant by id, keyed by id (other tenants' and deleted ids are absent). The ids
 * go as one JSON parameter and CROSS JOIN makes SQLite walk them, looking each row up by its id
 * (src/platform/db/by-ids.ts says why: with `id IN (…)` it scanned the tenant's rows).
 */
export async function getFaqsByIds(db: D1Database, tenantId: string, ids: readonly string[]): Promise<Map<string, FaqRow>> {
  if (ids.length === 0) return new Map();
  const rows = await drizzle(db)
    .select(faqFields)
    .from(sql`json_each(${JSON.stringify(ids)}) AS j`)
    .crossJoin(faqs)
    .where(and(eq(faqs.id, sql`j.value`), eq(faqs.tenantId, tenantId), isNull(faqs.deletedAt)));
  return new Map(rows.map((r) => [r.id, toFaqRow(r)]));
}

export interface FaqListArgs {
  tag?: string | undefined;
  /** Keeps FAQs whose question or answer matches this FTS5 expression (already made safe). */
  match?: string | null | undefined;
  /** Only FAQs with seq below this (the cursor). */
  beforeSeq?: number | undefined;
  limit: number;
}

/** Live FAQs, newest first, one page (limit + 1 rows are read to know whether more follow). */
export async function listFaqs(db: D1Database, tenantId: string, args: FaqListArgs): Promise<{ rows: FaqRow[]; more: boolean }> {
  const where: (SQL | undefined)[] = [eq(faqs.tenantId, tenantId), isNull(faqs.deletedAt)];
  // Raw: SQLite's json_each reads the tags array (drizzle has no JSON operators for SQLite).
  if (args.tag !== undefined) where.push(sql`EXISTS (SELECT 1 FROM json_each(${faqs.tags}) WHERE json_each.value = ${args.tag})`);
  // Raw: an FTS5 MATCH on the virtual table, whose rowid is the FAQ's seq.
  if (args.match) where.push(sql`${faqs.seq} IN (SELECT rowid FROM faqs_fts WHERE faqs_fts MATCH ${args.match})`);
  if (args.beforeSeq !== undefined) where.push(lt(faqs.seq, args.beforeSeq));
  const rows = await drizzle(db)
    .select(faqFields)
    .from(faqs)
    .where(and(...where))
    .orderBy(desc(faqs.seq))
    .limit(args.limit + 1);
  return { rows: rows.slice(0, args.limit).map(toFaqRow), more: rows.length > args.limit };
}

/**
 * Applies a change. When question, answer or tags change, the previous content is written as a
 * version in the SAME batch as the update (atomic: both or neither). A new question is re-embedded.
 */
export async function updateFaq(
  services: Services,
  tenantId: string,
  id: string,
  by: string,
  change: FaqChange,
  version: { changeType: "update" | "rollback"; reason?: string | undefined } = { changeType: "update" },
): Promise<FaqUpdateResult> {
  const { db, clock, embedder } = services;
  const current = await getFaqRow(db, tenantId, id);
  if (!current) return err("not_found");
  const now = clock.now();
  const update = applyFaqChange(current, change, { by, now, canEmbed: (text) => embedder.canEmbed(text) });
  if (!update) return ok({ row: current, contentChanged: false, questionChanged: false });
  const { next, contentChanged, questionChanged } = update;
  const orm = drizzle(db);
  const { tags, metadata } = faqValues(next);
  const write = orm
    .update(faqs)
    .set({
      question: next.question,
      answer: next.answer,
      tags,
      metadata,
      updatedBy: by,
      updatedAt: now,
      version: sql`${faqs.version} + ${contentChanged ? 1 : 0}`,
      indexState: next.index_state,
      ...(questionChanged ? { indexAttempts: 0 } : {}),
    })
    .where(liveFaq(tenantId, id))
    .returning({ seq: faqs.seq });
  const updated = contentChanged
    ? (
        await orm.batch([
          // The previous content, copied by the database itself from the row as it is inside this transaction.
          orm.insert(faqVersions).select(
            orm
              .select({
                // insert … select fills every column in the table's order: id first (null: SQLite assigns it).
                id: sql<null>`NULL`.as("id"),
                tenantId: faqs.tenantId,
                faqId: faqs.id,
                versionNumber: faqs.version,
                question: faqs.question,
                answer: faqs.answer,
                tags: faqs.tags,
                changeType: sql`${version.changeType}`.as("change_type"),
                changeReason: sql`${version.reason ?? null}`.as("change_reason"),
                changedBy: sql`${by}`.as("changed_by"),
                changedAt: sql`${now}`.as("changed_at"),
              })
              .from(faqs)
              .where(liveFaq(tenantId, id)),
          ),
          write,
          orm
            .update(faqsFts)
            .set({ question: ftsDocument(next.question), answer: ftsDocument(next.answer) })
            .where(eq(faqsFts.rowid, current.seq)),
        ])
      )[1]
    : await write;
  if (updated.length === 0) return err("not_found");
  if (contentChanged) next.version = current.version + 1;
  if (questionChanged && next.index_state === "pending") {
    const [state] = await indexFaqs(services, [next]);
    next.index_state = state ?? "pending";
  } else if (questionChanged) {
    // Text the model cannot embed: an old vector would describe the old question.
    await services.vectors.delete(tenantId, FAQ_COLLECTION, [id]).catch(() => {});
  }
  return ok({ row: next, contentChanged, questionChanged });
}

/** Soft delete: the FAQ leaves every read and search; its vectors and its variants' vectors are removed. */
export async function softDeleteFaq(services: Services, tenantId: string, id: string, by: string): Promise<boolean> {
  const { db, vectors, clock } = services;
  const orm = drizzle(db);
  const deleted = await orm
    .update(faqs)
    .set({ deletedAt: clock.now(), deletedBy: by })
    .where(liveFaq(tenantId, id))
    .returning({ id: faqs.id });
  if (deleted.length === 0) return false;
  const variants = await orm
    .select({ id: faqVariants.id })
    .from(faqVariants)
    .where(and(eq(faqVariants.tenantId, tenantId), eq(faqVariants.faqId, id)));
  // Search joins every candidate to a live row, so a leftover vector cannot surface: this is cleanup.
  await Promise.all([
    vectors.delete(tenantId, FAQ_COLLECTION, [id]),
    variants.length > 0
      ? vectors.delete(
          tenantId,
          FAQ_VARIANT_COLLECTION,
          variants.map((v) => v.id),
        )
      : null,
  ]).catch((error: unknown) => services.log.warn("vector_delete_failed", { id, ...errorFields(error) }));
  return true;
}
