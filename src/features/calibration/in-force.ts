/**
 * The scale in force for a tenant and a model, by precedence: the tenant's own fit → the
 * deployment's fit → the table shipped for the model → raw cosine (flagged). Read from D1 once per
 * isolate, tenant and model every SCALE_CACHE_MS: a new fit or a rollback reaches other isolates
 * within that time (and this isolate at once). A failed read falls back to the shipped scale, so a
 * storage fault can cost calibration for a minute, never a request.
 */
import { BoundedMap } from "../../core/base/bounded-map";
import type { Clock } from "../../core/base/clock";
import type { Embedder } from "../../platform/ports/embedder";
import type { Logger } from "../../platform/observe/log";
import { shippedScale } from "../../core/scale/registry";
import type { Scale } from "../../core/scale/scale";
import { activeTables, DEPLOYMENT, scaleFromStored, type StoredTableRow } from "./tables-store";

export const SCALE_CACHE_MS = 60_000;

/** Tenants' scales one isolate remembers (most share the shipped table's one object). */
const cache = new BoundedMap<string, { scale: Scale; until: number }>(10_000);

/** Forgets what this isolate knows of the scales in force (after a fit or a rollback; tests). */
export function forgetScales(): void {
  cache.clear();
}

export async function scaleInForce(db: D1Database, tenantId: string, model: string, now: number, log: Logger): Promise<Scale> {
  const key = `${tenantId}\u0000${model}`;
  const cached = cache.get(key);
  if (cached && cached.until > now) return cached.scale;
  let rows: ScaleRow[];
  try {
    rows = await activeTables(db, tenantId, model);
  } catch (error) {
    log.warn("scale_read_failed", { model, error: error instanceof Error ? error.name : "unknown" });
    return shippedScale(model); // not cached: the next request tries again
  }
  return keepScale(tenantId, model, rows, now, log);
}

type ScaleRow = Pick<StoredTableRow, "scope" | "model" | "version" | "tables" | "createdAt">;

/** The scale the rows give by precedence, remembered for SCALE_CACHE_MS. */
function keepScale(tenantId: string, model: string, rows: readonly ScaleRow[], now: number, log: Logger): Scale {
  const shipped = shippedScale(model);
  const pick = (scope: string) => rows.find((r) => r.scope === scope);
  const scale = fromRow(pick(tenantId), shipped, log) ?? fromRow(pick(DEPLOYMENT), shipped, log) ?? shipped;
  cache.set(`${tenantId}\u0000${model}`, { scale, until: now + SCALE_CACHE_MS });
  return scale;
}

/** A stored version as D1 returns it to a raw statement. */
interface RawTableRow {
  scope: string;
  model: string;
  version: number;
  tables: string;
  created_at: number;
}

/**
 * The scale of an API key's tenant, read in the same round trip as the key itself (findPrincipal's
 * `alongside`): a new isolate's first request of a key then waits for one read, not two.
 */
export function scaleAlongsideKey(db: D1Database, model: string, now: number, log: Logger) {
  return {
    statement: (keyHash: string) =>
      db
        .prepare(
          // The subquery finds the key's tenant; the rows are used only once the key is known valid.
          `SELECT scope, model, version, tables, created_at FROM calibration_tables WHERE model = ? AND active = 1
             AND scope IN ((SELECT tenant_id FROM api_keys WHERE key_hash = ? AND revoked_at IS NULL), ?)`,
        )
        .bind(model, keyHash, DEPLOYMENT),
    read: (rows: unknown[], principal: { tenantId: string }) => {
      const tables = (rows as RawTableRow[]).map((r) => ({
        scope: r.scope,
        model: r.model,
        version: r.version,
        tables: parsedOrEmpty(r.tables),
        createdAt: r.created_at,
      }));
      keepScale(principal.tenantId, model, tables, now, log);
    },
  };
}

/** A stored table's JSON, or {} (which fromRow then refuses, logged) when it does not parse. */
function parsedOrEmpty(text: string): StoredTableRow["tables"] {
  try {
    return JSON.parse(text) as StoredTableRow["tables"];
  } catch {
    return {};
  }
}

function fromRow(row: ScaleRow | undefined, shipped: Scale, log: Logger): Scale | null {
  if (!row) return null;
  try {
    return scaleFromStored(row, shipped);
  } catch {
    // A stored version that no longer parses is skipped, not trusted: the next one down serves.
    log.error("scale_table_invalid", { model: row.model, scope: row.scope === DEPLOYMENT ? "deployment" : "tenant", version: row.version });
    return null;
  }
}

/** The embedder reading similarities on `scale`. */
export function withScale(embedder: Embedder, scale: Scale): Embedder {
  return scale === embedder.scale ? embedder : { ...embedder, scale };
}

interface ScaledServices {
  home: D1Database;
  embedder: Embedder;
  clock: Clock;
  log: Logger;
}

/** The services with their embedder on the tenant's scale in force (a request's, a queued ticket's). */
export async function onTenantScale<S extends ScaledServices>(services: S, tenantId: string): Promise<S> {
  const scale = await scaleInForce(services.home, tenantId, services.embedder.model, services.clock.now(), services.log);
  return { ...services, embedder: withScale(services.embedder, scale) };
}
