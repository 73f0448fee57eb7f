/**
 * Version history (seed 002 §7.2.4). Each change of question/answer/tags stores the content it
 * replaced as a version, numbered by the FAQ's `version` counter (1 = the content it was created
 * with), in the same D1 batch as the change (store.ts updateFaq). Rollback is itself a change.
 */
import type { FaqChangeType } from "../db/schema";
import type { Services } from "../services";
import { type FaqRow, updateFaq } from "./store";
import { err, ok, type Result } from "../result";

/** Versions older than this are deleted by the daily retention cron. */
export const FAQ_VERSION_RETENTION_DAYS = 90;
const DAY_MS = 24 * 3600 * 1000;

export interface FaqVersion {
  versionNumber: number;
  question: string;
  answer: string;
  tags: string[];
  changeType: FaqChangeType;
  changeReason: string | null;
  changedBy: string;
  changedAt: string;
}

interface VersionRow {
  version_number: number;
  question: string;
  answer: string;
  tags: string;
  change_type: FaqChangeType;
  change_reason: string | null;
  changed_by: string;
  changed_at: number;
}

const toVersion = (r: VersionRow): FaqVersion => ({
  versionNumber: r.version_number,
  question: r.question,
  answer: r.answer,
  tags: JSON.parse(r.tags) as string[],
  changeType: r.change_type,
  changeReason: r.change_reason,
  changedBy: r.changed_by,
  changedAt: new Date(r.changed_at).toISOString(),
});

/** Versions of one FAQ, newest first: at most `limit`, below version `before` when given. */
export async function listVersions(
  db: D1Database,
  tenantId: string,
  faqId: string,
  page: { limit: number; before?: number | undefined },
): Promise<FaqVersion[]> {
  const { results } = await db
    .prepare(
      `SELECT version_number, question, answer, tags, change_type, change_reason, changed_by, changed_at
       FROM faq_versions WHERE tenant_id = ?1 AND faq_id = ?2 AND (?3 IS NULL OR version_number < ?3) ORDER BY version_number DESC LIMIT ?4`,
    )
    .bind(tenantId, faqId, page.before ?? null, page.limit)
    .all<VersionRow>();
  return results.map(toVersion);
}

export type RollbackResult = Result<FaqRow, "not_found" | "version_not_found">;

/** Restores a version's question/answer/tags; the content it replaces becomes a new version (change type "rollback"). */
export async function rollbackFaq(
  services: Services,
  tenantId: string,
  faqId: string,
  versionNumber: number,
  by: string,
  reason?: string,
): Promise<RollbackResult> {
  const target = await services.db
    .prepare(
      `SELECT v.question, v.answer, v.tags FROM faq_versions v JOIN faqs f ON f.id = v.faq_id
       WHERE v.tenant_id = ? AND v.faq_id = ? AND v.version_number = ? AND f.deleted_at IS NULL`,
    )
    .bind(tenantId, faqId, versionNumber)
    .first<{ question: string; answer: string; tags: string }>();
  if (!target) return err("version_not_found");
  const result = await updateFaq(
    services,
    tenantId,
    faqId,
    by,
    { question: target.question, answer: target.answer, tags: JSON.parse(target.tags) as string[] },
    { changeType: "rollback", reason: reason ?? `rollback to version ${versionNumber}` },
  );
  return result.ok ? ok(result.value.row) : err("not_found");
}

/** Daily retention: deletes versions changed more than FAQ_VERSION_RETENTION_DAYS ago (exactly 90 days old is kept). */
export async function pruneFaqVersions(services: Pick<Services, "db" | "clock">): Promise<{ deleted: number }> {
  const result = await services.db.prepare("DELETE FROM faq_versions WHERE changed_at < ?").bind(versionCutoff(services.clock.now())).run();
  return { deleted: result.meta.changes ?? 0 };
}

/** Versions changed before this time are pruned. */
export const versionCutoff = (now: number) => now - FAQ_VERSION_RETENTION_DAYS * DAY_MS;
