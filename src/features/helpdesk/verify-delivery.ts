import type { HelpdeskProvider } from "../../platform/db/schema/helpdesk";
import type { Services } from "../../platform/ports/services";
import { activeWebhookSecrets, secretsOrDecoy } from "../tickets/secrets";
import { webhookAuthDb } from "../tickets/select";
import { type ConnectionRow, getConnection } from "./connections";
import { providers } from "./providers";
import type { Delivery } from "./types";

/**
 * The connection a delivery is verified for, by its provider's own check against the connection's
 * active secrets; null for an unknown, revoked or other provider's connection as for a bad
 * signature, so a sender learns nothing about which connections exist.
 */
export async function verifiedConnection(
  services: Pick<Services, "home" | "secretBox" | "log">,
  provider: HelpdeskProvider,
  connectionId: string,
  delivery: Delivery,
): Promise<ConnectionRow | null> {
  const db = webhookAuthDb(services);
  const connection = await getConnection(db, connectionId);
  const live = connection && connection.provider === provider && connection.revokedAt === null;
  const secrets = live
    ? await activeWebhookSecrets(db, await services.secretBox(), connection.tenantId, connection.id, delivery.nowMs, services.log)
    : [];
  const signed = await providers[provider].verify(delivery, secretsOrDecoy(secrets));
  return signed && live && secrets.length > 0 ? connection : null;
}
