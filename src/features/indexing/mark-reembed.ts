/**
 * One D1 outbox table's share of a re-embed (reembed.ts): the tenant's rows whose vector another
 * model made go back to 'pending' (attempts reset), a page at a time, and their vectors leave the
 * index. A page is marked before its vectors are touched, and the rows keep the old model's name
 * until they are re-indexed, so a failure half-way loses nothing and running it again resumes.
 */
import { and, asc, eq, gt, inArray, isNotNull, ne } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import { faqs, faqVariants, memories } from "../../platform/db/schema";
import type { Services } from "../../platform/ports/services";

/** Rows marked per statement (the id list stays below D1's 100 bound parameters). */
const PAGE = 90;

export type ReembedTable = typeof memories | typeof faqs | typeof faqVariants;

/** How many rows of `table` were put back in the outbox. */
export async function markForReembedD1(
  { db, vectors }: Pick<Services, "db" | "vectors">,
  tenantId: string,
  model: string,
  table: ReembedTable,
  collection: string,
): Promise<number> {
  const orm = drizzle(db);
  let marked = 0;
  for (let after = 0; ;) {
    const page = await orm
      .select({ seq: table.seq, id: table.id })
      .from(table)
      .where(and(eq(table.tenantId, tenantId), isNotNull(table.embeddingModel), ne(table.embeddingModel, model), gt(table.seq, after)))
      .orderBy(asc(table.seq))
      .limit(PAGE);
    const last = page.at(-1);
    if (!last) return marked;
    const ids = page.map((r) => r.id);
    await orm
      .update(table)
      .set({ indexState: "pending", indexAttempts: 0, indexError: null })
      .where(and(eq(table.tenantId, tenantId), inArray(table.id, ids)));
    await vectors.delete(tenantId, collection, ids);
    marked += ids.length;
    after = last.seq;
  }
}
