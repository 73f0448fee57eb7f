/**
 * FAQs (seed 002): a canonical question, its answer, tags and metadata, per tenant. A row and its
 * full-text row are written in one D1 batch; the question's vector is indexed after (the outbox,
 * src/indexing/outbox.ts). Every change of question/answer/tags stores the previous content as a
 * version in the same batch (versions.ts). Deletes are soft: the row stays for versions and hits.
 */
import type { IndexState } from "../db/schema";
import { newId } from "../ids";
import type { Services } from "../services";
import { ftsDocument } from "../text/fts";
import { FAQ_COLLECTION, FAQ_VARIANT_COLLECTION, indexFaqs } from "./indexing";
import { selectByIds } from "../db/by-ids";
import { errorFields } from "../log";
import { err, ok, type Result } from "../result";

export interface NewFaq {
  question: string;
  answer: string;
  tags: string[];
  metadata: Record<string, unknown>;
}

export interface Faq extends NewFaq {
  id: string;
  version: number;
  createdBy: string;
  createdAt: string;
  updatedBy: string;
  updatedAt: string;
  indexState: IndexState;
}

export interface FaqRow {
  seq: number;
  id: string;
  tenant_id: string;
  question: string;
  answer: string;
  tags: string;
  metadata: string;
  version: number;
  created_by: string;
  created_at: number;
  updated_by: string;
  updated_at: number;
  deleted_at: number | null;
  index_state: IndexState;
}

export const FAQ_COLUMNS =
  "seq, id, tenant_id, question, answer, tags, metadata, version, created_by, created_at, updated_by, updated_at, deleted_at, index_state";

export function toFaq(row: FaqRow): Faq {
  return {
    id: row.id,
    question: row.question,
    answer: row.answer,
    tags: JSON.parse(row.tags) as string[],
    metadata: JSON.parse(row.metadata) as Record<string, unknown>,
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

/** The statements that insert an FAQ and its full-text row (for one batch). */
export function insertFaqStatements(db: D1Database, row: FaqRow): D1PreparedStatement[] {
  return [
    db
      .prepare(
        `INSERT INTO faqs (id, tenant_id, question, answer, tags, metadata, version, created_by, created_at, updated_by, updated_at, index_state)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .bind(
        row.id,
        row.tenant_id,
        row.question,
        row.answer,
        row.tags,
        row.metadata,
        row.version,
        row.created_by,
        row.created_at,
        row.updated_by,
        row.updated_at,
        row.index_state,
      ),
    db
      .prepare("INSERT INTO faqs_fts (rowid, question, answer) SELECT seq, ?, ? FROM faqs WHERE id = ?")
      .bind(ftsDocument(row.question), ftsDocument(row.answer), row.id),
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
  await services.db.batch(insertFaqStatements(services.db, row));
  if (row.index_state === "pending") {
    const [state] = await indexFaqs(services, [row]);
    row.index_state = state ?? "pending";
  }
  return row;
}

/** A live (not deleted) FAQ of the tenant, or null. */
export async function getFaqRow(db: D1Database, tenantId: string, id: string): Promise<FaqRow | null> {
  return db
    .prepare(`SELECT ${FAQ_COLUMNS} FROM faqs WHERE id = ? AND tenant_id = ? AND deleted_at IS NULL`)
    .bind(id, tenantId)
    .first<FaqRow>();
}

/** Any FAQ of the tenant, deleted or not, or null (to tell "deleted" from "never existed"). */
export async function getFaqRowIncludingDeleted(db: D1Database, tenantId: string, id: string): Promise<FaqRow | null> {
  return db.prepare(`SELECT ${FAQ_COLUMNS} FROM faqs WHERE id = ? AND tenant_id = ?`).bind(id, tenantId).first<FaqRow>();
}

/** Live FAQs of one tenant by id, keyed by id (other tenants' and deleted ids are absent). */
export function getFaqsByIds(db: D1Database, tenantId: string, ids: readonly string[]): Promise<Map<string, FaqRow>> {
  return selectByIds<FaqRow>(db, { from: "faqs", columns: FAQ_COLUMNS, where: "t.deleted_at IS NULL" }, tenantId, ids);
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
  const where = ["f.tenant_id = ?", "f.deleted_at IS NULL"];
  const binds: (string | number)[] = [tenantId];
  if (args.tag !== undefined) {
    where.push("EXISTS (SELECT 1 FROM json_each(f.tags) WHERE json_each.value = ?)");
    binds.push(args.tag);
  }
  if (args.match) {
    where.push("f.seq IN (SELECT rowid FROM faqs_fts WHERE faqs_fts MATCH ?)");
    binds.push(args.match);
  }
  if (args.beforeSeq !== undefined) {
    where.push("f.seq < ?");
    binds.push(args.beforeSeq);
  }
  const { results } = await db
    .prepare(
      `SELECT ${FAQ_COLUMNS.split(", ")
        .map((c) => `f.${c}`)
        .join(", ")} FROM faqs f WHERE ${where.join(" AND ")} ORDER BY f.seq DESC LIMIT ?`,
    )
    .bind(...binds, args.limit + 1)
    .all<FaqRow>();
  return { rows: results.slice(0, args.limit), more: results.length > args.limit };
}

export interface FaqChange {
  question?: string | undefined;
  answer?: string | undefined;
  tags?: string[] | undefined;
  metadata?: Record<string, unknown> | undefined;
}

export type FaqUpdateResult = Result<{ row: FaqRow; contentChanged: boolean; questionChanged: boolean }, "not_found">;

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
  const next: FaqRow = {
    ...current,
    question: change.question ?? current.question,
    answer: change.answer ?? current.answer,
    tags: change.tags ? JSON.stringify(change.tags) : current.tags,
    metadata: change.metadata ? JSON.stringify(change.metadata) : current.metadata,
  };
  const questionChanged = next.question !== current.question;
  const contentChanged = questionChanged || next.answer !== current.answer || next.tags !== current.tags;
  if (!contentChanged && next.metadata === current.metadata) return ok({ row: current, contentChanged: false, questionChanged: false });

  const now = clock.now();
  next.updated_at = now;
  next.updated_by = by;
  if (questionChanged) next.index_state = embedder.canEmbed(next.question) ? "pending" : "lexical_only";
  const statements: D1PreparedStatement[] = [];
  if (contentChanged) {
    // The previous content, copied by the database itself from the row as it is inside this transaction.
    statements.push(
      db
        .prepare(
          `INSERT INTO faq_versions (tenant_id, faq_id, version_number, question, answer, tags, change_type, change_reason, changed_by, changed_at)
           SELECT tenant_id, id, version, question, answer, tags, ?, ?, ?, ? FROM faqs WHERE id = ? AND tenant_id = ? AND deleted_at IS NULL`,
        )
        .bind(version.changeType, version.reason ?? null, by, now, id, tenantId),
    );
  }
  statements.push(
    db
      .prepare(
        `UPDATE faqs SET question = ?, answer = ?, tags = ?, metadata = ?, updated_by = ?, updated_at = ?, version = version + ?,
           index_state = ?, index_attempts = CASE WHEN ? THEN 0 ELSE index_attempts END
         WHERE id = ? AND tenant_id = ? AND deleted_at IS NULL`,
      )
      .bind(
        next.question,
        next.answer,
        next.tags,
        next.metadata,
        by,
        now,
        contentChanged ? 1 : 0,
        next.index_state,
        questionChanged ? 1 : 0,
        id,
        tenantId,
      ),
  );
  if (contentChanged) {
    statements.push(
      db
        .prepare("UPDATE faqs_fts SET question = ?, answer = ? WHERE rowid = ?")
        .bind(ftsDocument(next.question), ftsDocument(next.answer), current.seq),
    );
  }
  const results = await db.batch(statements);
  const updated = results[contentChanged ? 1 : 0];
  if ((updated?.meta.changes ?? 0) === 0) return err("not_found");
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
  const result = await db
    .prepare("UPDATE faqs SET deleted_at = ?, deleted_by = ? WHERE id = ? AND tenant_id = ? AND deleted_at IS NULL")
    .bind(clock.now(), by, id, tenantId)
    .run();
  if ((result.meta.changes ?? 0) === 0) return false;
  const { results: variants } = await db
    .prepare("SELECT id FROM faq_variants WHERE tenant_id = ? AND faq_id = ?")
    .bind(tenantId, id)
    .all<{ id: string }>();
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
