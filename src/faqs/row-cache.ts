/**
 * The FAQ and variant rows a D1 search needs, kept per isolate and tenant for as long as the
 * tenant's row version (faq_row_versions, bumped by triggers on every write to `faqs` or
 * `faq_variants`, migration 0012) stays the same: a warm search reads its candidates' rows from
 * memory instead of making a D1 round trip after its lists. The version is read in the same batch
 * as the lexical lists (search.ts), so a write anywhere is seen by the next search everywhere.
 * Absent rows (deleted, another tenant's) are remembered too: the vector index knows no deletes.
 */
import type { FaqRow } from "./store";
import { FAQ_COLUMNS } from "./store";
import type { VariantRow } from "./variants";
import { VARIANT_COLUMNS } from "./variants";

export interface RowVersion {
  epoch: string;
  counter: number;
}

/** The tenant's row version (null: it never wrote an FAQ); read in one batch with the search's lists. */
export const rowVersionQuery = (db: D1Database, tenantId: string) =>
  db.prepare("SELECT epoch, counter FROM faq_row_versions WHERE tenant_id = ?").bind(tenantId);

/**
 * Rows (FAQ + variant) one isolate keeps over all tenants: a search touches at most ~300, and
 * 20,000 rows of a few hundred bytes to a few KB stay well inside an isolate's 128 MB next to the
 * vector snapshots. Past it, the least recently used tenants' rows go first.
 */
export const MAX_CACHED_ROWS = 20_000;

interface TenantRows {
  version: string;
  faqs: Map<string, FaqRow | null>;
  variants: Map<string, VariantRow | null>;
}

const tenants = new Map<string, TenantRows>();

/** Forgets every cached row of this isolate, as a new isolate starts (tests and benchmarks). */
export function forgetCachedRows(): void {
  tenants.clear();
}

export interface CandidateRows {
  /** The variants asked for that exist, of this tenant. */
  variantRows: Map<string, VariantRow>;
  /** Live FAQs of this tenant among those named and those of the variants. */
  rows: Map<string, FaqRow>;
}

/** The rows of these variants and FAQs as of `version`: cached ones from memory, the rest in one round trip (then kept). */
export async function candidateRows(
  db: D1Database,
  tenantId: string,
  version: RowVersion | null,
  variantIds: readonly string[],
  faqIds: readonly string[],
): Promise<CandidateRows> {
  const entry = entryFor(tenantId, version ? `${version.epoch}:${version.counter}` : "");
  const missingVariants = [...new Set(variantIds)].filter((id) => !entry.variants.has(id));
  const knownFaqIds = variantIds.flatMap((id) => {
    const variant = entry.variants.get(id);
    return variant ? [variant.faq_id] : [];
  });
  const missingFaqs = [...new Set([...faqIds, ...knownFaqIds])].filter((id) => !entry.faqs.has(id));
  if (missingVariants.length > 0 || missingFaqs.length > 0) {
    const read = await readRows(db, tenantId, missingVariants, missingFaqs);
    // Kept only while the entry is still the tenant's current one (a newer version may have replaced it meanwhile).
    const target = tenants.get(tenantId) === entry ? entry : { version: "", faqs: new Map(entry.faqs), variants: new Map(entry.variants) };
    for (const id of missingVariants) target.variants.set(id, read.variantRows.get(id) ?? null);
    for (const variant of read.variantRows.values()) missingFaqs.push(variant.faq_id);
    for (const id of missingFaqs) target.faqs.set(id, read.rows.get(id) ?? null);
    if (target === entry) evictBeyondBudget();
    return collect(target, variantIds, faqIds);
  }
  return collect(entry, variantIds, faqIds);
}

function entryFor(tenantId: string, version: string): TenantRows {
  const current = tenants.get(tenantId);
  tenants.delete(tenantId);
  const entry = current?.version === version ? current : { version, faqs: new Map(), variants: new Map() };
  tenants.set(tenantId, entry); // most recently used last: eviction takes from the front
  return entry;
}

function collect(entry: TenantRows, variantIds: readonly string[], faqIds: readonly string[]): CandidateRows {
  const variantRows = new Map<string, VariantRow>();
  const rows = new Map<string, FaqRow>();
  const addFaq = (id: string) => {
    const row = entry.faqs.get(id);
    if (row) rows.set(id, row);
  };
  for (const id of variantIds) {
    const variant = entry.variants.get(id);
    if (!variant) continue;
    variantRows.set(id, variant);
    addFaq(variant.faq_id);
  }
  for (const id of faqIds) addFaq(id);
  return { variantRows, rows };
}

function evictBeyondBudget(): void {
  let total = 0;
  for (const entry of tenants.values()) total += entry.faqs.size + entry.variants.size;
  for (const [tenantId, entry] of tenants) {
    if (total <= MAX_CACHED_ROWS) break;
    tenants.delete(tenantId);
    total -= entry.faqs.size + entry.variants.size;
  }
}

/**
 * The variants named and every FAQ named or of those variants, live and of this tenant, in one
 * round trip. Ids go as one JSON parameter each (no chunks for D1's parameter limit); CROSS JOIN
 * makes SQLite walk the ids and look each row up by its unique id, instead of scanning the
 * tenant's rows.
 */
async function readRows(
  db: D1Database,
  tenantId: string,
  variantIds: readonly string[],
  faqIds: readonly string[],
): Promise<CandidateRows> {
  const variants = JSON.stringify(variantIds);
  const [variantResult, faqResult] = await db.batch<VariantRow | FaqRow>([
    db
      .prepare(
        `SELECT ${prefixed("v", VARIANT_COLUMNS)} FROM json_each(?2) AS j CROSS JOIN faq_variants AS v ON v.id = j.value WHERE v.tenant_id = ?1`,
      )
      .bind(tenantId, variants),
    db
      .prepare(
        `SELECT ${prefixed("f", FAQ_COLUMNS)} FROM (
           SELECT value AS id FROM json_each(?2)
           UNION SELECT v.faq_id FROM json_each(?3) AS j CROSS JOIN faq_variants AS v ON v.id = j.value WHERE v.tenant_id = ?1
         ) AS ids CROSS JOIN faqs AS f ON f.id = ids.id WHERE f.tenant_id = ?1 AND f.deleted_at IS NULL`,
      )
      .bind(tenantId, JSON.stringify(faqIds), variants),
  ]);
  return {
    variantRows: new Map((variantResult!.results as VariantRow[]).map((r) => [r.id, r])),
    rows: new Map((faqResult!.results as FaqRow[]).map((r) => [r.id, r])),
  };
}

const prefixed = (table: string, columns: string) =>
  columns
    .split(",")
    .map((c) => `${table}.${c.trim()}`)
    .join(", ");
