/**
 * What a key is called where people read who did something ("ranked by …", an override's
 * "override:<who>" label): the name given when the key was created, else its id. The principal
 * carries only the id (it is cached per request path that needs no name), so this reads D1 once
 * per isolate and key: a key's name never changes after it is created, so the label is remembered
 * for good and a show's rank waits for no round trip before its Durable Object call
 * (docs/design/round-trips.md).
 */
import { BoundedMap } from "../../core/base/bounded-map";
import type { Principal } from "./keys";

const labels = new BoundedMap<string, string>(10_000);

export async function keyLabel(db: D1Database, principal: Principal): Promise<string> {
  const cacheKey = `${principal.tenantId}\u0000${principal.keyId}`;
  const known = labels.get(cacheKey);
  if (known !== undefined) return known;
  const row = await db
    .prepare("SELECT name FROM api_keys WHERE id = ? AND tenant_id = ?")
    .bind(principal.keyId, principal.tenantId)
    .first<{ name: string | null }>();
  const name = row?.name?.trim();
  const label = name ? name : principal.keyId;
  // Only a key that exists: an id read before its row was visible falls back to the id, and must not stick.
  if (row) {
    labels.set(cacheKey, label);
  }
  return label;
}
