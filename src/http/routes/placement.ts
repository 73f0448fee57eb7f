/**
 * The deployment's tenants and databases (docs/design/tenant-placement.md), for the operator's tenant
 * only: POST /v1/admin/tenants creates a tenant and its first admin key in a database (named, or
 * the one with the most room); POST /v1/admin/tenants/:id/move moves one to another database, a
 * step per call (src/features/placement/move.ts); GET /v1/admin/databases shows each database's
 * size and tenants.
 */
import { Hono } from "hono";
import { z } from "zod";
import { D1_LIMIT_BYTES, NEW_TENANT_FULL_AT } from "../../core/placement/emptiest";
import { createApiKey } from "../../features/auth/keys";
import { forgetPlacement, placementOf } from "../../features/placement/directory";
import { advanceMove, MoveRefused, moveState } from "../../features/placement/move";
import { createPlacedTenant, databaseForNewTenant, databaseStates } from "../../features/placement/place";
import { databaseNames } from "../../platform/db/databases";
import type { AppEnv } from "../context";
import { placementDocs } from "../docs/placement";
import { AppError } from "../errors";
import { requireOperator } from "../middleware/require-operator";
import { ofTheDeployment } from "../route-facts";
import { idParam } from "../schemas/shared";
import { validate } from "../validation";

const moveSchema = z.strictObject({ to: z.string().max(10).describe("The D1 binding to move the tenant to: DB, DB_1, …") });

const newTenantSchema = z.strictObject({
  name: z.string().trim().min(1).max(100),
  database: z.string().max(10).optional().describe("A D1 binding of this deployment (DB, DB_1, …); default: the one with the most room"),
});

function mustBeOneOf(names: readonly string[], name: string): void {
  if (!names.includes(name)) throw new AppError("VALIDATION_FAILED", `No D1 database "${name}" in this deployment: ${names.join(", ")}`);
}

// Mounted at /admin beside the tenant's own admin routes: the operator check is per route, not a `use` over /admin/*.
export const placement = new Hono<AppEnv>()
  .post("/tenants", placementDocs.createTenant, ofTheDeployment, requireOperator, validate("json", newTenantSchema), async (c) => {
    const services = c.get("services");
    const { name, database: named } = c.req.valid("json");
    const names = databaseNames(c.env);
    if (named !== undefined) mustBeOneOf(names, named);
    const database = named ?? (await databaseForNewTenant(services, names));
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
  .post(
    "/tenants/:id/move",
    placementDocs.move,
    ofTheDeployment,
    requireOperator,
    validate("param", idParam),
    validate("json", moveSchema),
    async (c) => {
      const services = c.get("services");
      const tenantId = c.req.valid("param").id;
      const { to } = c.req.valid("json");
      mustBeOneOf(databaseNames(c.env), to);
      const tenant = await services.home.prepare("SELECT 1 FROM tenants WHERE id = ?").bind(tenantId).first();
      if (!tenant) throw new AppError("NOT_FOUND", "No such tenant");
      forgetPlacement(tenantId);
      const { database: from } = await placementOf(services.home, tenantId, services.clock.now());
      try {
        return c.json(await advanceMove(services, { tenantId, from, to }), 200);
      } catch (error) {
        if (error instanceof MoveRefused) throw new AppError("CONFLICT", error.message);
        throw error;
      }
    },
  )
  .get("/tenants/:id/move", placementDocs.moveState, requireOperator, validate("param", idParam), async (c) => {
    const state = await moveState(c.get("services"), c.req.valid("param").id);
    if (!state) throw new AppError("NOT_FOUND", "The tenant was never moved");
    return c.json(state, 200);
  })
  .get("/databases", placementDocs.databases, requireOperator, async (c) => {
    const databases = await databaseStates(c.get("services"), databaseNames(c.env));
    return c.json({ databases, limitBytes: D1_LIMIT_BYTES, newTenantsBelow: NEW_TENANT_FULL_AT });
  });
