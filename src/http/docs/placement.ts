import { z } from "zod";
import { describe } from "../openapi/describe";
import { movePhases } from "../../platform/db/schema/core";
import { CreatedKey } from "./admin";
import { obj } from "./common";

export const PlacedTenant = obj({
  tenant: obj({
    id: z.string(),
    name: z.string(),
    database: z.string().describe("The D1 binding holding the tenant's rows: DB (the home database), DB_1, …"),
  }),
  key: CreatedKey.describe("The tenant's first admin key, shown this once"),
});

export const Databases = obj({
  databases: z.array(
    obj({
      name: z.string().describe("The D1 binding: DB (the home database), DB_1, …"),
      bytes: z.number().int().describe("Bytes in use, as D1 reports them"),
      tenants: z.number().int().describe("Tenants placed in it"),
      growingTenants: z
        .number()
        .int()
        .describe("Of them, those placed less than a year ago: placement counts each at a typical tenant's size"),
    }),
  ),
  limitBytes: z.number().int().describe("One D1 database's limit"),
  newTenantsBelow: z
    .number()
    .describe("A database this full (a share of the limit), its growing tenants counted at a typical tenant's size, takes no new tenant"),
});

export const MoveState = obj({
  tenantId: z.string(),
  from: z.string(),
  to: z.string(),
  phase: z
    .enum(movePhases)
    .describe(
      "freezing (writes refused; waits out the key cache), copying, verifying, settling (switched; waits before deleting), deleting, done, failed",
    ),
  table: z.string().nullable().describe("The table the phase is at"),
  tablesDone: z.number().int(),
  tables: z.number().int(),
  rows: z.number().int().describe("Rows copied"),
  waitMs: z.number().int().describe("While freezing or settling: how long the phase still waits"),
  reason: z.string().nullable().describe("Why the move failed"),
});

const operatorOnly = { 403: "FORBIDDEN: an admin key of the operator's tenant (OPERATOR_TENANT) only" };

export const placementDocs = {
  createTenant: describe({
    tag: "Admin",
    summary: "Create a tenant",
    description:
      "A new tenant and its first admin key, placed in the database named by `database`, else in the one with the most room (docs/design/tenant-placement.md). The key is in this answer only.",
    responses: { 201: PlacedTenant },
    errors: {
      ...operatorOnly,
      400: "VALIDATION_FAILED: `database` names no D1 binding of this deployment",
      409: "DATABASES_FULL: every database is past its fill limit for new tenants; add one (docs/guides/scaling.md)",
    },
    requestExample: { name: "Acme Support" },
  }),
  move: describe({
    tag: "Admin",
    summary: "Move a tenant to another database",
    description:
      "Starts the move, or goes on with the one under way, for about 5 s; call again until `phase` is done or failed (`npm run tenant:move` does). While freezing, copying and verifying, the tenant's writes answer 503 with Retry-After and its reads go on; a verification difference fails the move and leaves the tenant where it was.",
    responses: { 200: MoveState },
    errors: { ...operatorOnly, 404: "no such tenant", 409: "CONFLICT: the tenant is in that database, or being moved elsewhere" },
    requestExample: { to: "DB_1" },
  }),
  moveState: describe({
    tag: "Admin",
    summary: "Read a tenant's move",
    description: "Where the tenant's last move stands; no work is done.",
    responses: { 200: MoveState },
    errors: { ...operatorOnly, 404: "the tenant was never moved" },
  }),
  databases: describe({
    tag: "Admin",
    summary: "List the databases",
    description: "The deployment's D1 databases, each with its size and the number of tenants placed in it.",
    responses: { 200: Databases },
    errors: operatorOnly,
  }),
};
