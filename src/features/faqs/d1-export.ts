/** The D1 side of moving a knowledge base (transfer.ts): the rows an export reads, and the links an import restores. */
import { and, asc, desc, eq, isNull } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import { faqRelationships, faqs, faqVariants, faqVersions } from "../../platform/db/schema";
import { relationshipRows, toExportLines } from "./transfer";
import type { ExportLine, ImportedRelationship } from "./types";

export async function exportFromD1(db: D1Database, tenantId: string): Promise<ExportLine[]> {
  const orm = drizzle(db);
  const [faqRows, variants, versions, links] = await Promise.all([
    orm
      .select()
      .from(faqs)
      .where(and(eq(faqs.tenantId, tenantId), isNull(faqs.deletedAt)))
      .orderBy(asc(faqs.seq)),
    orm.select().from(faqVariants).where(eq(faqVariants.tenantId, tenantId)).orderBy(asc(faqVariants.seq)),
    orm.select().from(faqVersions).where(eq(faqVersions.tenantId, tenantId)).orderBy(desc(faqVersions.versionNumber)),
    orm.select().from(faqRelationships).where(eq(faqRelationships.tenantId, tenantId)).orderBy(asc(faqRelationships.createdAt)),
  ]);
  return toExportLines({ faqs: faqRows, variants, versions, links });
}

/** D1 binds at most 100 parameters per statement: 10 columns, so 9 links per insert. */
const LINKS_PER_INSERT = 9;

export async function restoreRelationshipsD1(
  db: D1Database,
  tenantId: string,
  importedFaqIds: ReadonlySet<string>,
  links: readonly ImportedRelationship[],
): Promise<number> {
  const rows = relationshipRows(tenantId, importedFaqIds, links);
  const orm = drizzle(db);
  let restored = 0;
  for (let i = 0; i < rows.length; i += LINKS_PER_INSERT) {
    restored += (
      await orm
        .insert(faqRelationships)
        .values(rows.slice(i, i + LINKS_PER_INSERT))
        .onConflictDoNothing()
        .returning({ id: faqRelationships.id })
    ).length;
  }
  return restored;
}
