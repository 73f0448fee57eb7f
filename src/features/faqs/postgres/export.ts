/** The Postgres side of moving a knowledge base (../transfer.ts): the rows an export reads, and the links an import restores. */
import { and, asc, desc, eq, isNull } from "drizzle-orm";
import type { PgDatabase } from "../../../platform/db/pg/client";
import { pgFaqRelationships, pgFaqs, pgFaqVariants, pgFaqVersions } from "../../../platform/db/pg/schema";
import { relationshipRows, toExportLines } from "../transfer";
import type { ExportLine, ImportedRelationship } from "../types";
import { faqColumns, variantColumns } from "./rows";

export async function exportFromPostgres(db: PgDatabase, tenantId: string): Promise<ExportLine[]> {
  const [faqRows, variants, versions, links] = await Promise.all([
    db
      .select(faqColumns)
      .from(pgFaqs)
      .where(and(eq(pgFaqs.tenantId, tenantId), isNull(pgFaqs.deletedAt)))
      .orderBy(asc(pgFaqs.seq)),
    db.select(variantColumns).from(pgFaqVariants).where(eq(pgFaqVariants.tenantId, tenantId)).orderBy(asc(pgFaqVariants.seq)),
    db.select().from(pgFaqVersions).where(eq(pgFaqVersions.tenantId, tenantId)).orderBy(desc(pgFaqVersions.versionNumber)),
    db.select().from(pgFaqRelationships).where(eq(pgFaqRelationships.tenantId, tenantId)).orderBy(asc(pgFaqRelationships.createdAt)),
  ]);
  return toExportLines({ faqs: faqRows, variants, versions, links });
}

/** Rows per INSERT (10 columns each: far below Postgres' 65,535 parameters). */
const LINKS_PER_INSERT = 500;

export async function restoreRelationshipsPostgres(
  db: PgDatabase,
  tenantId: string,
  importedFaqIds: ReadonlySet<string>,
  links: readonly ImportedRelationship[],
): Promise<number> {
  const rows = relationshipRows(tenantId, importedFaqIds, links);
  let restored = 0;
  for (let i = 0; i < rows.length; i += LINKS_PER_INSERT) {
    restored += (
      await db
        .insert(pgFaqRelationships)
        .values(rows.slice(i, i + LINKS_PER_INSERT))
        .onConflictDoNothing()
        .returning({ id: pgFaqRelationships.id })
    ).length;
  }
  return restored;
}
