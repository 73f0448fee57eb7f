import type { Services } from "../../platform/ports/services";
import { activeWebhookSecrets, secretsOrDecoy } from "./secrets";
import { webhookAuthDb } from "./select";
import { verifySignature } from "./signature";

/**
 * Whether a native delivery is signed with an active secret of the tenant it names. An unknown
 * tenant, one without a secret and a bad or stale signature are the same false: a sender learns
 * nothing about which tenants exist.
 */
export async function signedByTenant(
  services: Pick<Services, "home" | "secretBox" | "log">,
  tenantId: string,
  signed: { timestamp: string | undefined; signature: string | undefined; rawBody: string },
  now: number,
): Promise<boolean> {
  const secrets =
    tenantId && tenantId.length <= 100
      ? await activeWebhookSecrets(webhookAuthDb(services), await services.secretBox(), tenantId, null, now, services.log)
      : [];
  return (await verifySignature({ secrets: secretsOrDecoy(secrets), ...signed, nowMs: now })) && secrets.length > 0;
}
