/** Tenants and their API keys, and the outbox states shared by every indexed row. */
import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

export const tenants = sqliteTable("tenants", {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  createdAt: integer("created_at").notNull(),
});

export const apiKeys = sqliteTable(
  "api_keys",
  {
    id: text("id").primaryKey(),
    tenantId: text("tenant_id")
      .notNull()
      .references(() => tenants.id),
    /** SHA-256 of the key, hex. The key itself is shown once, at creation. */
    keyHash: text("key_hash").notNull(),
    /** The first characters of the key, so a person can tell keys apart in a listing. */
    keyPrefix: text("key_prefix").notNull(),
    role: text("role", { enum: ["client", "admin"] }).notNull(),
    name: text("name").notNull().default(""),
    createdAt: integer("created_at").notNull(),
    revokedAt: integer("revoked_at"),
  },
  (t) => [uniqueIndex("api_keys_hash_idx").on(t.keyHash), index("api_keys_tenant_idx").on(t.tenantId)],
);

/** Where a row stands with the vector index (the outbox): see src/features/indexing/. */
export const indexStates = ["pending", "indexed", "lexical_only", "failed"] as const;
export type IndexState = (typeof indexStates)[number];

/**
 * Per-tenant settings (seed 003's switches: cards, card confidence, extraction on store, question
 * detection, expansion), as the JSON of src/features/settings/tenant.ts; a tenant without a row uses the defaults.
 */
export const tenantSettings = sqliteTable("tenant_settings", {
  tenantId: text("tenant_id")
    .primaryKey()
    .references(() => tenants.id),
  settings: text("settings", { mode: "json" }).$type<Record<string, unknown>>().notNull(),
  updatedAt: integer("updated_at").notNull(),
});

/**
 * The directory (docs/design/tenant-placement.md): which D1 binding holds a tenant's rows. Kept in
 * the home database (`DB`) only; a tenant without a row lives in `DB`, so a one-database
 * deployment needs no rows here.
 */
export const tenantDatabases = sqliteTable("tenant_databases", {
  tenantId: text("tenant_id").primaryKey(),
  /** A D1 binding's name: DB_1, DB_2, … */
  database: text("database").notNull(),
  placedAt: integer("placed_at").notNull(),
});

export const movePhases = ["freezing", "copying", "verifying", "settling", "deleting", "done", "failed"] as const;
export type MovePhase = (typeof movePhases)[number];
/** The phases during which the moving tenant's writes are refused (503, Retry-After): its rows are being copied. */
export const WRITES_FROZEN_PHASES: readonly MovePhase[] = ["freezing", "copying", "verifying"];
/** The same, as SQL: `phase IN (…)`. */
export const WRITES_FROZEN_SQL = `phase IN (${WRITES_FROZEN_PHASES.map((p) => `'${p}'`).join(", ")})`;

/**
 * A tenant's move to another database (src/features/placement/move.ts), in the home database: its
 * phase (the tenant's writes are refused while it is freezing, copying or verifying) and the
 * verify and delete positions.
 */
export const tenantMoves = sqliteTable("tenant_moves", {
  tenantId: text("tenant_id").primaryKey(),
  fromDatabase: text("from_database").notNull(),
  toDatabase: text("to_database").notNull(),
  phase: text("phase", { enum: movePhases }).notNull(),
  /** When the phase began: freezing and settling wait out PRINCIPAL_CACHE_MS from it. */
  phaseAt: integer("phase_at").notNull(),
  /** The index of the table in MOVED_TABLES the phase is at. */
  tableIndex: integer("table_index").notNull().default(0),
  /** The last source rowid the phase dealt with in that table. */
  cursor: integer("cursor").notNull().default(0),
  /** Verifying: the last target rowid compared. */
  targetCursor: integer("target_cursor").notNull().default(0),
  /** Rows copied, once the copy is done. */
  rows: integer("rows").notNull().default(0),
  reason: text("reason"),
  startedAt: integer("started_at").notNull(),
});

/**
 * A move's copy position, in the target database: written in the same batch as the rows it
 * copied, so a copy cut off anywhere resumes exactly. Its absence at a move's start is what makes
 * the move clear the target of an earlier, abandoned copy first.
 */
export const tenantCopies = sqliteTable("tenant_copies", {
  tenantId: text("tenant_id").primaryKey(),
  tableIndex: integer("table_index").notNull().default(0),
  cursor: integer("cursor").notNull().default(0),
  rows: integer("rows").notNull().default(0),
});
