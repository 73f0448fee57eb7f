import { describe, expect, it } from "vitest";
import { D1_LIMIT_BYTES, emptiest, expectedTenantBytes, TENANT_ROOM_FLOOR_BYTES } from "../../src/core/placement/emptiest";

const GB = 1000 ** 3;
const db = (name: string, gb: number, growingTenants = 0) => ({ name, bytes: gb * GB, growingTenants });

describe("emptiest", () => {
  it("takes the database with the fewest bytes when none has growing tenants", () => {
    expect(emptiest([db("DB", 3), db("DB_1", 1), db("DB_2", 2)])).toBe("DB_1");
  });

  it("counts each growing tenant at the expected size, so the database that took the last tenants is not chosen again", () => {
    // DB_1 has fewer bytes, but its 20 young tenants will take 20 × 200 MB = 4 GB more.
    expect(emptiest([db("DB", 3), db("DB_1", 1, 20)], { tenantBytes: 0.2 * GB })).toBe("DB");
  });

  it("skips a database past the fill limit once its growing tenants are counted, and answers null when all are", () => {
    // DB is at 80 % by bytes; DB_1's 2 GB and 40 growing tenants of 0.2 GB make 10 GB.
    expect(emptiest([db("DB", 8), db("DB_1", 2, 40)], { tenantBytes: 0.2 * GB })).toBeNull();
    expect(emptiest([db("DB", 8), db("DB_1", 2, 20)], { tenantBytes: 0.2 * GB })).toBe("DB_1");
    expect(emptiest([db("DB", 8)])).toBeNull();
  });

  it("breaks ties by the first named", () => {
    expect(emptiest([db("DB", 1), db("DB_1", 1)])).toBe("DB");
  });
});

describe("expectedTenantBytes", () => {
  it("is the deployment's bytes per tenant, never below the floor", () => {
    expect(expectedTenantBytes([db("DB", 30), db("DB_1", 10)], 100)).toBe(0.4 * GB);
    expect(expectedTenantBytes([db("DB", 0.001)], 10)).toBe(TENANT_ROOM_FLOOR_BYTES);
    expect(expectedTenantBytes([], 0)).toBe(TENANT_ROOM_FLOOR_BYTES);
    expect(D1_LIMIT_BYTES).toBe(10 * GB);
  });
});
