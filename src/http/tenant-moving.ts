/**
 * A tenant being moved to another database (src/features/placement/move.ts) takes no writes while
 * its rows are copied: 503 with Retry-After, which the typed client, the hook and helpdesks retry.
 */
import { type Placement, placementOf } from "../features/placement/directory";
import { PRINCIPAL_CACHE_MS } from "../features/auth/keys";
import { type Services, servicesIn } from "../platform/ports/services";
import { AppError } from "./errors";

/** Seconds a refused write is asked to wait: an isolate learns of the move's end within the key cache's time. */
export const MOVING_RETRY_AFTER_S = PRINCIPAL_CACHE_MS / 1000;

export function refuseWhileMoving(placement: Pick<Placement, "writesFrozen">): void {
  if (placement.writesFrozen) {
    throw new AppError(
      "UNAVAILABLE",
      "This tenant is being moved to another database: writes are held until the copy is in use; retry after Retry-After",
      undefined,
      MOVING_RETRY_AFTER_S,
    );
  }
}

/** A webhook's services on its tenant's database, refused while the tenant is being moved. */
export async function servicesForWrites<S extends Services>(services: S, tenantId: string): Promise<S> {
  const placement = await placementOf(services.home, tenantId, services.clock.now());
  refuseWhileMoving(placement);
  return servicesIn(services, placement.database);
}
