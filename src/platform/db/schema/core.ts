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
