/** A tenant's live FAQs with their variants and versions, from Postgres, as export lines (../transfer.ts). */
import { and, asc, desc, eq, isNull } from "drizzle-orm";
import type { PgDatabase } from "../../db/pg/client";
import { pgFaqs, pgFaqVariants, pgFaqVersions } from "../../db/pg/schema";
import { group } from "../d1-export";
import { type ExportLine, isoTime } from "../transfer";
import { faqColumns, toFaqVersion, variantColumns, metadataSchema, tagsSchema } from "./rows";

export async function exportFromPostgres(db: PgDatabase, tenantId: string): Promise<Omit<ExportLine, "related">[]> {
  const [faqRows, variantRows, versionRows] = await Promise.all([
    db
      .select(faqColumns)
      .from(pgFaqs)
      .where(and(eq(pgFaqs.tenantId, tenantId), isNull(pgFaqs.deletedAt)))
      .orderBy(asc(pgFaqs.seq)),
    db.select(variantColumns).from(pgFaqVariants).where(eq(pgFaqVariants.tenantId, tenantId)).orderBy(asc(pgFaqVariants.seq)),
    db.select().from(pgFaqVersions).where(eq(pgFaqVersions.tenantId, tenantId)).orderBy(desc(pgFaqVersions.versionNumber)),
  ]);
  const variantsOf = group(variantRows, (v) => v.faqId);
  const versionsOf = group(versionRows, (v) => v.faqId);
  return faqRows.map((f) => ({
    id: f.id,
    question: f.question,
    answer: f.answer,
    tags: tagsSchema.parse(f.tags),
    metadata: metadataSchema.parse(f.metadata),
    version: f.version,
    createdBy: f.createdBy,
    createdAt: isoTime(f.createdAt),
    updatedBy: f.updatedBy,
    updatedAt: isoTime(f.updatedAt),
    variants: (variantsOf.get(f.id) ?? []).map((v) => ({
      id: v.id,
      variantText: v.variantText,
      source: v.source,
      sourceTicketId: v.sourceTicketId,
      createdBy: v.createdBy,
      createdAt: isoTime(v.createdAt),
    })),
    versions: (versionsOf.get(f.id) ?? []).map(toFaqVersion),
  }));
}
