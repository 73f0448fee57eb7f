/**
 * The FAQ and variant rows a D1 search needs, kept per isolate and tenant for as long as the
 * tenant's row version (faq_row_versions, bumped by triggers on every write to `faqs` or
 * `faq_variants`, migration 0012) stays the same: a warm search reads its candidates' rows from
 * memory instead of making a D1 round trip after its lists. The version is read in the same batch
 * as the lexical lists (search.ts), so a write anywhere is seen by the next search everywhere.
 * Absent rows (deleted, another tenant's) are remembered too: the vector index knows no deletes.
 * A small tenant is read whole on its first search at a version (WHOLE_TENANT), so no later
 * search at that version waits on a row read at all.
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

/**
 * A tenant within both limits (live FAQs + variants; characters of live answers) is read whole,
 * in one round trip, on its first search at a version: a 1k-FAQ tenant with 3 variants each
 * (4,000 rows) then finds every candidate in memory, where reading each new candidate cost a
 * round trip. The answer limit keeps one read (and the isolate's memory) bounded whatever an
 * answer holds (up to 20,000 characters each). Larger tenants read their candidates' rows only.
 */
export const WHOLE_TENANT = { rows: 5_000, answerChars: 4_000_000 };

/**
 * Tenants this isolate found past WHOLE_TENANT: their later versions skip the whole read (and its
 * counting) and read candidates only. Tenants seldom shrink below the limit; one that does is read
 * whole again in a new isolate.
 */
const pastWholeLimit = new Set<string>();

interface TenantRows {
  version: string;
  faqs: Map<string, FaqRow | null>;
  variants: Map<string, VariantRow | null>;
  /** The maps hold every row of the tenant at this version (an id not in them is absent); null: not tried yet. */
  whole: boolean | null;
}

const tenants = new Map<string, TenantRows>();

/** Forgets every cached row of this isolate, as a new isolate starts (tests and benchmarks). */
export function forgetCachedRows(): void {
  tenants.clear();
  pastWholeLimit.clear();
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
  wholeTenant = WHOLE_TENANT,
): Promise<CandidateRows> {
  const key = version ? versionKey(version) : "";
  const entry = entryFor(tenantId, key);
  if (entry.whole === null && version && !pastWholeLimit.has(tenantId)) {
    entry.whole = false; // tried: a search running alongside reads its candidates instead
    const whole = await readWholeTenant(db, tenantId, wholeTenant);
    if (whole === PAST_LIMIT) pastWholeLimit.add(tenantId);
    // Kept only if it is the version the lists saw and the entry is still the tenant's current one.
    else if (whole.version === key && tenants.get(tenantId) === entry) {
      for (const row of whole.faqs) entry.faqs.set(row.id, row);
      for (const row of whole.variants) entry.variants.set(row.id, row);
      entry.whole = true;
      evictBeyondBudget();
    }
  }
  if (entry.whole) return collect(entry, variantIds, faqIds);
  const missingVariants = [...new Set(variantIds)].filter((id) => !entry.variants.has(id));
  const knownFaqIds = variantIds.flatMap((id) => {
    const variant = entry.variants.get(id);
    return variant ? [variant.faq_id] : [];
  });
  const missingFaqs = [...new Set([...faqIds, ...knownFaqIds])].filter((id) => !entry.faqs.has(id));
  if (missingVariants.length > 0 || missingFaqs.length > 0) {
    const read = await readRows(db, tenantId, missingVariants, missingFaqs);
    // Kept only while the entry is still the tenant's current one (a newer version may have replaced it meanwhile).
    const target =
      tenants.get(tenantId) === entry ? entry : { version: "", faqs: new Map(entry.faqs), variants: new Map(entry.variants), whole: false };
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
  const entry = current?.version === version ? current : { version, faqs: new Map(), variants: new Map(), whole: null };
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

const versionKey = (version: RowVersion) => `${version.epoch}:${version.counter}`;

const PAST_LIMIT = Symbol("past the whole-tenant limit");

/**
 * Every live FAQ and every variant of the tenant, with the row version they were read at, in one
 * round trip; PAST_LIMIT when the tenant is past either limit (then nothing but the counts is
 * read: CASE keeps SQLite from summing a large tenant's answers).
 */
async function readWholeTenant(
  db: D1Database,
  tenantId: string,
  limits: typeof WHOLE_TENANT,
): Promise<{ version: string; faqs: FaqRow[]; variants: VariantRow[] } | typeof PAST_LIMIT> {
  const within = `CASE WHEN (SELECT count(*) FROM faqs WHERE tenant_id = ?1 AND deleted_at IS NULL)
      + (SELECT count(*) FROM faq_variants WHERE tenant_id = ?1) <= ?2
    THEN (SELECT coalesce(sum(length(answer)), 0) FROM faqs WHERE tenant_id = ?1 AND deleted_at IS NULL) <= ?3 ELSE 0 END`;
  const [version, faqs, variants] = await db.batch<unknown>([
    db
      .prepare(`SELECT epoch, counter, ${within} AS within FROM faq_row_versions WHERE tenant_id = ?1`)
      .bind(tenantId, limits.rows, limits.answerChars),
    db
      .prepare(`SELECT ${FAQ_COLUMNS} FROM faqs WHERE tenant_id = ?1 AND deleted_at IS NULL AND ${within}`)
      .bind(tenantId, limits.rows, limits.answerChars),
    db
      .prepare(`SELECT ${VARIANT_COLUMNS} FROM faq_variants WHERE tenant_id = ?1 AND ${within}`)
      .bind(tenantId, limits.rows, limits.answerChars),
  ]);
  const read = version!.results[0] as (RowVersion & { within: number }) | undefined;
  // No version row: the tenant's rows went between the lists and this read; the version differs.
  if (!read) return { version: "", faqs: [], variants: [] };
  if (!read.within) return PAST_LIMIT;
  return { version: versionKey(read), faqs: faqs!.results as FaqRow[], variants: variants!.results as VariantRow[] };
}

const prefixed = (table: string, columns: string) =>
  columns
    .split(",")
    .map((c) => `${table}.${c.trim()}`)
    .join(", ");
