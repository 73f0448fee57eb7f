/** A tenant's live FAQs with their variants and versions, from D1, as export lines (transfer.ts). Drizzle rows, JSON columns parsed by schema. */
import { and, asc, desc, eq, isNull } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import { faqs, faqVariants, faqVersions } from "../db/schema";
import { metadataSchema, tagsSchema } from "./postgres/rows";
import { type ExportLine, isoTime } from "./transfer";

export async function exportFromD1(db: D1Database, tenantId: string): Promise<Omit<ExportLine, "related">[]> {
  const orm = drizzle(db);
  const [faqRows, variantRows, versionRows] = await Promise.all([
    orm
      .select()
      .from(faqs)
      .where(and(eq(faqs.tenantId, tenantId), isNull(faqs.deletedAt)))
      .orderBy(asc(faqs.seq)),
    orm.select().from(faqVariants).where(eq(faqVariants.tenantId, tenantId)).orderBy(asc(faqVariants.seq)),
    orm.select().from(faqVersions).where(eq(faqVersions.tenantId, tenantId)).orderBy(desc(faqVersions.versionNumber)),
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
    versions: (versionsOf.get(f.id) ?? []).map((v) => ({
      versionNumber: v.versionNumber,
      question: v.question,
      answer: v.answer,
      tags: tagsSchema.parse(v.tags),
      changeType: v.changeType,
      changeReason: v.changeReason,
      changedBy: v.changedBy,
      changedAt: isoTime(v.changedAt),
    })),
  }));
}

export function group<T>(rows: readonly T[], key: (row: T) => string): Map<string, T[]> {
  const grouped = new Map<string, T[]>();
  for (const row of rows) {
    const k = key(row);
    const list = grouped.get(k);
    if (list) list.push(row);
    else grouped.set(k, [row]);
  }
  return grouped;
}
