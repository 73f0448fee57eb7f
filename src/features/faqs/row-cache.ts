/**
 * The FAQ and variant rows a D1 search needs, kept per isolate and tenant for as long as the
 * tenant's row version (faq_row_versions, bumped by triggers on every write to `faqs` or
 * `faq_variants`, migration 0012) stays the same: a warm search reads its candidates' rows from
 * memory instead of making a D1 round trip after its lists. The version is read in the same batch
 * as the lexical lists (search.ts), so a write anywhere is seen by the next search everywhere.
 * Absent rows (deleted, another tenant's) are remembered too: the vector index knows no deletes.
 * On a tenant's first search at a version, one round trip reads it whole if it is small
 * (WHOLE_TENANT: every row, so no later search waits on a row read); a larger one has its outline
 * read after that search's answer (OUTLINED_TENANT: what ranking needs, so a later search reads
 * only its hits' rows).
 */
import type { Defer } from "../../platform/ports/services";
import { approxBytes, CACHE_BUDGET } from "../../platform/isolate/memory";
import type { FaqRow, VariantRow } from "./types";
import { FAQ_COLUMNS } from "./store";
import { VARIANT_COLUMNS } from "./variants";

export interface RowVersion {
  epoch: string;
  counter: number;
}

/** The tenant's row version (null: it never wrote an FAQ); read in one batch with the search's lists. */
export const rowVersionQuery = (db: D1Database, tenantId: string) =>
  db.prepare("SELECT epoch, counter FROM faq_row_versions WHERE tenant_id = ?").bind(tenantId);

/**
 * What one isolate keeps of rows (FAQ + variant, whole or outlined) over all tenants, counted by
 * approxBytes: CACHE_BUDGET.faqRows (src/platform/isolate/memory.ts). Past it, the least recently used
 * tenants' rows go first.
 */
export const CACHED_ROW_BYTES = CACHE_BUDGET.faqRows;
/** The largest outline kept (OUTLINED_TENANT), as a share of the budget: its tenant's hits and a few small tenants fit beside it. */
const OUTLINE_SHARE = 0.75;

/**
 * A tenant within both limits (live FAQs + variants; characters of live answers) is read whole,
 * in one round trip, on its first search at a version: a 1k-FAQ tenant with 3 variants each
 * (4,000 rows) then finds every candidate in memory, where reading each new candidate cost a
 * round trip. The answer limit keeps one read (and the isolate's memory) bounded whatever an
 * answer holds (up to 20,000 characters each). Larger tenants read their candidates' rows only.
 */
export const WHOLE_TENANT = { rows: 5_000, answerChars: 4_000_000 };

/**
 * A tenant past WHOLE_TENANT with at most this many live FAQs + variants has its outline read
 * after its first search at a version has answered (that search reads its candidates' rows; the
 * outline of 40,000 rows takes ~150–200 ms locally, too long to wait for): each live FAQ's tags
 * and each variant's FAQ and text, what ranking needs, without the answers. A later search reads
 * only its hits' rows (a page, most of them kept from earlier searches) instead of every
 * candidate new to the cache: a 10k-FAQ tenant with 30k variants met ~280 new candidates a
 * search. Larger tenants read their candidates' rows, and so does one whose outline would take
 * more than OUTLINE_SHARE of the row budget (long variants).
 */
export const OUTLINED_TENANT = { rows: 50_000 };
interface Limits {
  whole: typeof WHOLE_TENANT;
  outlined: typeof OUTLINED_TENANT;
  /** What the isolate keeps of rows, all tenants together. */
  bytes: number;
}
const DEFAULT_LIMITS: Limits = { whole: WHOLE_TENANT, outlined: OUTLINED_TENANT, bytes: CACHED_ROW_BYTES };

/**
 * Tenants this isolate found past both limits: their later versions skip the first read (and its
 * counting) and read candidates only. Tenants seldom shrink below the limit; one that does is read
 * again in a new isolate.
 */
const pastOutlineLimit = new Set<string>();

/** What ranking needs of an FAQ: that it is live and of the tenant, and its tags (a filter). */
export type FaqOutline = Pick<FaqRow, "id" | "tags">;
/** What ranking needs of a variant: its FAQ and its text (the matched variant). */
export type VariantOutline = Pick<VariantRow, "id" | "faq_id" | "variant_text">;

interface Outline {
  faqs: Map<string, FaqOutline>;
  variants: Map<string, VariantOutline>;
}

interface TenantRows {
  version: string;
  faqs: Map<string, FaqRow | null>;
  variants: Map<string, VariantRow | null>;
  /** The maps hold every row of the tenant at this version (an id not in them is absent); null: not tried yet. */
  whole: boolean | null;
  /** Every live FAQ and variant of the tenant at this version, outlined; the maps above then hold only hits. */
  outline: Outline | null;
  /** About what the maps and the outline hold (approxBytes), kept as rows are added. */
  bytes: number;
}

const tenants = new Map<string, TenantRows>();

/**
 * Starts the first read of a tenant this isolate holds nothing of (a new isolate, after an
 * eviction), so it runs alongside the query's embedding and lists instead of after them (a
 * 1k-FAQ tenant's 4,000 rows; a larger tenant's counts). Whether it is the version the lists saw
 * is checked when it is taken (candidateRows' `ahead`, in the same request). A tenant already
 * held is not read ahead (null): its version is only known once the lists are back.
 */
export function prefetchRows(db: D1Database, tenantId: string): Promise<FirstRead | null> | null {
  if (tenants.has(tenantId) || pastOutlineLimit.has(tenantId)) return null;
  // A failure here is not the search's: it reads again itself.
  return readTenant(db, tenantId, DEFAULT_LIMITS, false).catch(() => null);
}

/** About what this isolate keeps of rows now (approxBytes), all tenants together. */
export function cachedRowBytes(): number {
  let total = 0;
  for (const entry of tenants.values()) total += entry.bytes;
  return total;
}

/** Forgets every cached row of this isolate, as a new isolate starts (tests and benchmarks). */
export function forgetCachedRows(): void {
  tenants.clear();
  pastOutlineLimit.clear();
}

export interface CandidateRows {
  /** The variants asked for that exist, of this tenant. */
  variantRows: Map<string, VariantOutline>;
  /** Live FAQs of this tenant among those named and those of the variants. */
  rows: Map<string, FaqOutline>;
  /** The whole rows of these FAQs (a search's hits, all among `rows`), at the same version. */
  hits(faqIds: readonly string[]): Promise<Map<string, FaqRow>>;
}

/**
 * The rows of these variants and FAQs as of `version`: cached ones from memory, the rest in one
 * round trip (then kept). `ahead` is this request's prefetchRows; `defer` takes a large tenant's
 * outline read past the answer (without it, in jobs and tests, the read is awaited and this search
 * already ranks from the outline).
 */
export async function candidateRows(
  db: D1Database,
  tenantId: string,
  version: RowVersion | null,
  variantIds: readonly string[],
  faqIds: readonly string[],
  { limits = DEFAULT_LIMITS, ahead = null, defer }: { limits?: Limits; ahead?: Promise<FirstRead | null> | null; defer?: Defer } = {},
): Promise<CandidateRows> {
  const key = version ? versionKey(version) : "";
  const entry = entryFor(tenantId, key);
  if (entry.whole === null && version && !pastOutlineLimit.has(tenantId)) {
    entry.whole = false; // tried: a search running alongside reads its candidates instead
    const first = (await ahead) ?? (await readTenant(db, tenantId, limits, false));
    if (first === PAST_LIMIT) pastOutlineLimit.add(tenantId);
    // Kept only if it is the version the lists saw and the entry is still the tenant's current one.
    else if (first.version === key && tenants.get(tenantId) === entry) {
      if (first.outlined) {
        const load = () => outlineInto(entry, db, tenantId, limits);
        if (defer) defer(load);
        else await load();
      } else {
        for (const row of first.faqs) keep(entry, entry.faqs, row.id, row);
        for (const row of first.variants) keep(entry, entry.variants, row.id, row);
        entry.whole = true;
        evictBeyondBudget(limits.bytes);
      }
    }
  }
  if (entry.whole) return collect(entry, variantIds, faqIds, async (ids) => present(entry.faqs, ids));
  if (entry.outline) {
    const outline = entry.outline;
    return collect(outline, variantIds, faqIds, async (ids) => {
      const missing = ids.filter((id) => !entry.faqs.has(id));
      if (missing.length > 0) {
        const read = await readRows(db, tenantId, [], missing);
        if (tenants.get(tenantId) === entry) {
          for (const id of missing) keep(entry, entry.faqs, id, read.rows.get(id) ?? null);
          evictBeyondBudget(limits.bytes);
        }
        return new Map([...present(entry.faqs, ids), ...read.rows]);
      }
      return present(entry.faqs, ids);
    });
  }
  const missingVariants = [...new Set(variantIds)].filter((id) => !entry.variants.has(id));
  const knownFaqIds = variantIds.flatMap((id) => {
    const variant = entry.variants.get(id);
    return variant ? [variant.faq_id] : [];
  });
  const missingFaqs = [...new Set([...faqIds, ...knownFaqIds])].filter((id) => !entry.faqs.has(id));
  let target = entry;
  if (missingVariants.length > 0 || missingFaqs.length > 0) {
    const read = await readRows(db, tenantId, missingVariants, missingFaqs);
    // Kept only while the entry is still the tenant's current one (a newer version may have replaced it meanwhile).
    if (tenants.get(tenantId) !== entry) target = { ...entry, faqs: new Map(entry.faqs), variants: new Map(entry.variants) };
    for (const id of missingVariants) keep(target, target.variants, id, read.variantRows.get(id) ?? null);
    for (const variant of read.variantRows.values()) missingFaqs.push(variant.faq_id);
    for (const id of missingFaqs) keep(target, target.faqs, id, read.rows.get(id) ?? null);
    if (target === entry) evictBeyondBudget(limits.bytes);
  }
  return collect(target, variantIds, faqIds, async (ids) => present(target.faqs, ids));
}

/** Reads the tenant's outline into its entry, if the entry is still current and the version the same. */
async function outlineInto(entry: TenantRows, db: D1Database, tenantId: string, limits: Limits): Promise<void> {
  const read = await readTenant(db, tenantId, limits, true);
  if (read === PAST_LIMIT || !read.outline || read.version !== entry.version || tenants.get(tenantId) !== entry) return;
  let bytes = 0;
  for (const map of [read.outline.faqs, read.outline.variants]) for (const row of map.values()) bytes += ENTRY_BYTES + approxBytes(row);
  // An outline that would crowd out every other tenant is not kept: the tenant reads its candidates' rows instead.
  if (bytes > limits.bytes * OUTLINE_SHARE) {
    pastOutlineLimit.add(tenantId);
    return;
  }
  entry.outline = read.outline;
  entry.bytes += bytes;
  evictBeyondBudget(limits.bytes);
}

function entryFor(tenantId: string, version: string): TenantRows {
  const current = tenants.get(tenantId);
  tenants.delete(tenantId);
  const entry =
    current?.version === version ? current : { version, faqs: new Map(), variants: new Map(), whole: null, outline: null, bytes: 0 };
  tenants.set(tenantId, entry); // most recently used last: eviction takes from the front
  return entry;
}

/** The candidates found in `from` (an entry's rows or its outline); `hits` reads whole rows. */
function collect<F extends FaqOutline, V extends VariantOutline>(
  from: { faqs: Map<string, F | null>; variants: Map<string, V | null> },
  variantIds: readonly string[],
  faqIds: readonly string[],
  hits: CandidateRows["hits"],
): CandidateRows {
  const variantRows = new Map<string, VariantOutline>();
  const rows = new Map<string, FaqOutline>();
  const addFaq = (id: string) => {
    const row = from.faqs.get(id);
    if (row) rows.set(id, row);
  };
  for (const id of variantIds) {
    const variant = from.variants.get(id);
    if (!variant) continue;
    variantRows.set(id, variant);
    addFaq(variant.faq_id);
  }
  for (const id of faqIds) addFaq(id);
  return { variantRows, rows, hits };
}

function present(faqs: Map<string, FaqRow | null>, ids: readonly string[]): Map<string, FaqRow> {
  const found = new Map<string, FaqRow>();
  for (const id of ids) {
    const row = faqs.get(id);
    if (row) found.set(id, row);
  }
  return found;
}

/** Remembers a row (null: absent) in one of the entry's maps, counting its bytes. */
function keep<R extends object>(entry: TenantRows, map: Map<string, R | null>, id: string, row: R | null): void {
  if (!map.has(id)) entry.bytes += ENTRY_BYTES + (row ? approxBytes(row) : 0);
  map.set(id, row);
}

/** A map entry's own cost beside its row: the key and the slot. */
const ENTRY_BYTES = 80;

function evictBeyondBudget(budget: number): void {
  let total = cachedRowBytes();
  for (const [tenantId, entry] of tenants) {
    if (total <= budget) break;
    tenants.delete(tenantId);
    total -= entry.bytes;
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
): Promise<{ variantRows: Map<string, VariantRow>; rows: Map<string, FaqRow> }> {
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

const PAST_LIMIT = Symbol("past the outline limit");

/** What a tenant's first read at a version found (readTenant). */
type FirstRead =
  { version: string; faqs: FaqRow[]; variants: VariantRow[]; outlined: boolean; outline: Outline | null } | typeof PAST_LIMIT;

/**
 * The tenant's rows with the row version they were read at, in one round trip: every live FAQ and
 * variant whole within `limits.whole`, else (`outlined`) their outline within `limits.outlined`
 * when `withOutline` asks for it, else
 * PAST_LIMIT (then nothing but the counts is read: CASE keeps SQLite from summing a large
 * tenant's answers, and a constant WHERE term is checked once, before any row is read).
 */
async function readTenant(db: D1Database, tenantId: string, limits: Limits, withOutline: boolean): Promise<FirstRead> {
  const rows = `(SELECT count(*) FROM faqs WHERE tenant_id = ?1 AND deleted_at IS NULL) + (SELECT count(*) FROM faq_variants WHERE tenant_id = ?1)`;
  const whole = `CASE WHEN ${rows} <= ?2
    THEN (SELECT coalesce(sum(length(answer)), 0) FROM faqs WHERE tenant_id = ?1 AND deleted_at IS NULL) <= ?3 ELSE 0 END`;
  const outlined = `(NOT ${whole} AND ${rows} <= ?4)`;
  const params = [tenantId, limits.whole.rows, limits.whole.answerChars, limits.outlined.rows];
  // D1 wants exactly the parameters a statement names.
  const bind = (sql: string) => db.prepare(sql).bind(...params.slice(0, sql.includes("?4") ? 4 : 3));
  const [version, faqs, variants, faqOutlines, variantOutlines] = await db.batch<unknown>([
    bind(`SELECT epoch, counter, ${whole} AS whole, ${outlined} AS outlined FROM faq_row_versions WHERE tenant_id = ?1`),
    bind(`SELECT ${FAQ_COLUMNS} FROM faqs WHERE tenant_id = ?1 AND deleted_at IS NULL AND ${whole}`),
    bind(`SELECT ${VARIANT_COLUMNS} FROM faq_variants WHERE tenant_id = ?1 AND ${whole}`),
    ...(withOutline
      ? [
          bind(`SELECT id, tags FROM faqs WHERE tenant_id = ?1 AND deleted_at IS NULL AND ${outlined}`),
          bind(`SELECT id, faq_id, variant_text FROM faq_variants WHERE tenant_id = ?1 AND ${outlined}`),
        ]
      : []),
  ]);
  const read = version!.results[0] as (RowVersion & { whole: number; outlined: number }) | undefined;
  // No version row: the tenant's rows went between the lists and this read; the version differs.
  if (!read) return { version: "", faqs: [], variants: [], outlined: false, outline: null };
  if (!read.whole && !read.outlined) return PAST_LIMIT;
  // Asked for and of an outlined tenant (otherwise the outline statements were absent or read nothing).
  const outline =
    read.outlined && faqOutlines && variantOutlines
      ? {
          faqs: new Map((faqOutlines.results as FaqOutline[]).map((r) => [r.id, r])),
          variants: new Map((variantOutlines.results as VariantOutline[]).map((r) => [r.id, r])),
        }
      : null;
  return {
    version: versionKey(read),
    faqs: faqs!.results as FaqRow[],
    variants: variants!.results as VariantRow[],
    outlined: Boolean(read.outlined),
    outline,
  };
}

const prefixed = (table: string, columns: string) =>
  columns
    .split(",")
    .map((c) => `${table}.${c.trim()}`)
    .join(", ");
