import { z } from "zod";
import { describe } from "../openapi/describe";
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
    }),
  ),
  limitBytes: z.number().int().describe("One D1 database's limit"),
  newTenantsBelow: z.number().describe("A database this full (a share of the limit) takes no new tenant"),
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
  databases: describe({
    tag: "Admin",
    summary: "List the databases",
    description: "The deployment's D1 databases, each with its size and the number of tenants placed in it.",
    responses: { 200: Databases },
    errors: operatorOnly,
  }),
};
