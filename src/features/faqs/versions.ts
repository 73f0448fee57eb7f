/**
 * Version history (seed 002 §7.2.4). Each change of question/answer/tags stores the content it
 * replaced as a version, numbered by the FAQ's `version` counter (1 = the content it was created
 * with), in the same D1 batch as the change (store.ts updateFaq). Rollback is itself a change.
 */
import { and, desc, eq, isNull, lt } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import { faqs, faqVersions } from "../../platform/db/schema";
import type { Services } from "../../platform/ports/services";
import { tagsSchema } from "./json-columns";
import { toFaqVersion } from "./rows";
import { updateFaq } from "./store";
import type { FaqVersion, RollbackResult } from "./types";
import { err, ok } from "../../core/base/result";

/** Versions older than this are deleted by the daily retention cron. */
export const FAQ_VERSION_RETENTION_DAYS = 90;
const DAY_MS = 24 * 3600 * 1000;

/** Versions of one FAQ, newest first: at most `limit`, below version `before` when given. */
export async function listVersions(
  db: D1Database,
  tenantId: string,
  faqId: string,
  page: { limit: number; before?: number | undefined },
): Promise<FaqVersion[]> {
  const rows = await drizzle(db)
    .select()
    .from(faqVersions)
    .where(
      and(
        eq(faqVersions.tenantId, tenantId),
        eq(faqVersions.faqId, faqId),
        page.before === undefined ? undefined : lt(faqVersions.versionNumber, page.before),
      ),
    )
    .orderBy(desc(faqVersions.versionNumber))
    .limit(page.limit);
  return rows.map(toFaqVersion);
}

/** Restores a version's question/answer/tags; the content it replaces becomes a new version (change type "rollback"). */
export async function rollbackFaq(
  services: Services,
  tenantId: string,
  faqId: string,
  versionNumber: number,
  by: string,
  reason?: string,
): Promise<RollbackResult> {
  const target = await drizzle(services.db)
    .select({ question: faqVersions.question, answer: faqVersions.answer, tags: faqVersions.tags })
    .from(faqVersions)
    .innerJoin(faqs, eq(faqs.id, faqVersions.faqId))
    .where(
      and(
        eq(faqVersions.tenantId, tenantId),
        eq(faqVersions.faqId, faqId),
        eq(faqVersions.versionNumber, versionNumber),
        isNull(faqs.deletedAt),
      ),
    )
    .get();
  if (!target) return err("version_not_found");
  const result = await updateFaq(
    services,
    tenantId,
    faqId,
    by,
    { question: target.question, answer: target.answer, tags: tagsSchema.parse(target.tags) },
    { changeType: "rollback", reason: reason ?? `rollback to version ${versionNumber}` },
  );
  return result.ok ? ok(result.value.row) : err("not_found");
}

/** Daily retention: deletes versions changed more than FAQ_VERSION_RETENTION_DAYS ago (exactly 90 days old is kept). */
export async function pruneFaqVersions(services: Pick<Services, "db" | "clock">): Promise<{ deleted: number }> {
  const result = await drizzle(services.db)
    .delete(faqVersions)
    .where(lt(faqVersions.changedAt, versionCutoff(services.clock.now())));
  return { deleted: result.meta.changes ?? 0 };
}

/** Versions changed before this time are pruned. */
export const versionCutoff = (now: number) => now - FAQ_VERSION_RETENTION_DAYS * DAY_MS;
