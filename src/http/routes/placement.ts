/**
 * The deployment's tenants and databases (docs/design/tenant-placement.md), for the operator's tenant
 * only: POST /v1/admin/tenants creates a tenant and its first admin key in a database (named, or
 * the one with the most room); GET /v1/admin/databases shows each database's size and tenants.
 */
import { Hono } from "hono";
import { z } from "zod";
import { D1_LIMIT_BYTES, NEW_TENANT_FULL_AT } from "../../core/placement/emptiest";
import { createApiKey } from "../../features/auth/keys";
import { tenantCounts } from "../../features/placement/directory";
import { createPlacedTenant, databaseFills, databaseForNewTenant } from "../../features/placement/place";
import { databaseNames } from "../../platform/db/databases";
import type { AppEnv } from "../context";
import { placementDocs } from "../docs/placement";
import { AppError } from "../errors";
import { requireOperator } from "../middleware/require-operator";
import { validate } from "../validation";

const newTenantSchema = z.strictObject({
  name: z.string().trim().min(1).max(100),
  database: z.string().max(10).optional().describe("A D1 binding of this deployment (DB, DB_1, …); default: the one with the most room"),
});

// Mounted at /admin beside the tenant's own admin routes: the operator check is per route, not a `use` over /admin/*.
export const placement = new Hono<AppEnv>()
  .post("/tenants", placementDocs.createTenant, requireOperator, validate("json", newTenantSchema), async (c) => {
    const services = c.get("services");
    const { name, database: named } = c.req.valid("json");
    const names = databaseNames(c.env);
    if (named !== undefined && !names.includes(named)) {
      throw new AppError("VALIDATION_FAILED", `No D1 database "${named}" in this deployment: ${names.join(", ")}`);
    }
    const database = await databaseForNewTenant(services, names, named);
    if (!database) {
      throw new AppError(
        "DATABASES_FULL",
        "Every database is too full for a new tenant: add a D1 database (docs/guides/scaling.md), or name one",
      );
    }
    const now = services.clock.now();
    const tenant = await createPlacedTenant(services, { name, database, now });
    const key = await createApiKey(services.home, { tenantId: tenant.id, role: "admin", name: "first admin key", now });
    return c.json({ tenant, key: { ...key, createdAt: new Date(key.createdAt).toISOString() } }, 201);
  })
  .get("/databases", placementDocs.databases, requireOperator, async (c) => {
    const services = c.get("services");
    const [fills, counts] = await Promise.all([databaseFills(services, databaseNames(c.env)), tenantCounts(services.home)]);
    const databases = fills.map((fill) => ({ ...fill, tenants: counts.get(fill.name) ?? 0 }));
    return c.json({ databases, limitBytes: D1_LIMIT_BYTES, newTenantsBelow: NEW_TENANT_FULL_AT });
  });
