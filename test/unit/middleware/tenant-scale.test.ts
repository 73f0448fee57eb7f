import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createServices } from "../../../src/app/services";
import { storeVersion } from "../../../src/features/calibration/tables-store";
import { UNFITTED } from "../../../src/core/decisions/same-question";
import { tenantScale } from "../../../src/http/middleware/tenant-scale";
import { withServices } from "../../../src/http/middleware/with-services";
import { newTenant } from "../../support/api";
import { appAround, signedInAs } from "../../support/middleware";

const services = createServices(env);

/** The scale source the route's embedder reads similarities on, for a request of `tenantId`. */
async function scaleSeenBy(tenantId: string) {
  const app = appAround([withServices((e) => createServices(e)), signedInAs(tenantId, "client"), tenantScale], (c) =>
    c.json(c.get("services").embedder.scale?.source ?? null),
  );
  return (await app.request("/", {}, env)).json();
}

describe("tenantScale", () => {
  it("puts the route's embedder on the tenant's own fit, and leaves other tenants on theirs", async () => {
    const fitted = await newTenant();
    const other = await newTenant();
    await storeVersion(env.DB, {
      scope: fitted.tenantId,
      model: services.embedder.model,
      tables: {
        calibration: {
          method: "isotonic",
          fittedOn: "a test",
          knots: [
            [0, 0],
            [1, 1],
          ],
        },
        decision: UNFITTED.embedding,
      },
      report: {},
      fitId: "fit-test",
      createdBy: "test",
      createdAt: Date.now(),
    });
    expect(await scaleSeenBy(fitted.tenantId)).toMatchObject({ kind: "tenant", version: 1 });
    expect(await scaleSeenBy(other.tenantId)).not.toMatchObject({ kind: "tenant" });
  });
});
