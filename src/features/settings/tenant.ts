/**
 * Per-tenant settings: seed 003's configuration switches (ExtractionConfig, QueryConfig), with the
 * seed's defaults. A tenant without a stored row uses the defaults; a stored row is merged over
 * them, so a switch added later gets its default for everyone. Read by the memory write (card
 * extraction) and every memory search; changed by an admin (GET/PATCH /v1/admin/settings).
 */
import { z } from "zod";

export const tenantSettingsSchema = z.strictObject({
  cards: z.strictObject({
    /** Cards are extracted and looked up at all (seed: extraction.enabled). */
    enabled: z.boolean(),
    /** Cards below this confidence are neither stored nor used (seed: confidence_threshold). */
    confidenceThreshold: z.number().min(0).max(1),
    /** Extract cards when a memory is stored (seed: extract_on_store); the backfill does it otherwise. */
    extractOnStore: z.boolean(),
  }),
  query: z.strictObject({
    /** Detect the question type: card lookups and the Recency weighting (seed: enable_detection). */
    questionTypeDetection: z.boolean(),
    /** Stopword removal, OR query and variants; off = the query's own terms, all required (seed: enable_expansion). */
    expansion: z.boolean(),
  }),
});
export type TenantSettings = z.infer<typeof tenantSettingsSchema>;

export const DEFAULT_TENANT_SETTINGS: Readonly<TenantSettings> = Object.freeze({
  cards: { enabled: true, confidenceThreshold: 0.7, extractOnStore: true },
  query: { questionTypeDetection: true, expansion: true },
});

/** A PATCH body: any subset of the switches; unknown ones are refused. */
export const tenantSettingsPatchSchema = z.strictObject({
  cards: tenantSettingsSchema.shape.cards.partial().optional(),
  query: tenantSettingsSchema.shape.query.partial().optional(),
});
export type TenantSettingsPatch = z.infer<typeof tenantSettingsPatchSchema>;

export interface StoredTenantSettings {
  settings: TenantSettings;
  /** When an admin last changed them; null while the tenant uses the defaults. */
  updatedAt: string | null;
}

function merge(base: TenantSettings, patch: TenantSettingsPatch): TenantSettings {
  return { cards: { ...base.cards, ...patch.cards }, query: { ...base.query, ...patch.query } };
}

export async function readTenantSettings(db: D1Database, tenantId: string): Promise<StoredTenantSettings> {
  const row = await db
    .prepare("SELECT settings, updated_at FROM tenant_settings WHERE tenant_id = ?")
    .bind(tenantId)
    .first<{ settings: string; updated_at: number }>();
  if (!row) return { settings: DEFAULT_TENANT_SETTINGS, updatedAt: null };
  // A stored value that no longer validates (a switch renamed) falls back to the defaults for that part.
  const stored = tenantSettingsPatchSchema.safeParse(JSON.parse(row.settings));
  return { settings: merge(DEFAULT_TENANT_SETTINGS, stored.success ? stored.data : {}), updatedAt: new Date(row.updated_at).toISOString() };
}

/** The settings a code path runs with. */
export async function getTenantSettings(db: D1Database, tenantId: string): Promise<TenantSettings> {
  return (await readTenantSettings(db, tenantId)).settings;
}

export async function updateTenantSettings(
  db: D1Database,
  tenantId: string,
  patch: TenantSettingsPatch,
  now: number,
): Promise<StoredTenantSettings> {
  const settings = tenantSettingsSchema.parse(merge((await readTenantSettings(db, tenantId)).settings, patch));
  await db
    .prepare(
      `INSERT INTO tenant_settings (tenant_id, settings, updated_at) VALUES (?, ?, ?)
       ON CONFLICT (tenant_id) DO UPDATE SET settings = excluded.settings, updated_at = excluded.updated_at`,
    )
    .bind(tenantId, JSON.stringify(settings), now)
    .run();
  return { settings, updatedAt: new Date(now).toISOString() };
}
