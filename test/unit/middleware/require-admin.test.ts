import { describe, expect, it } from "vitest";
import { requireAdmin } from "../../../src/http/middleware/require-admin";
import { expectError } from "../../support/client";
import { appAround, signedInAs } from "../../support/middleware";

describe("requireAdmin", () => {
  it("refuses a client key with 403", async () => {
    const res = await expectError(appAround([signedInAs("t_1", "client"), requireAdmin]).request("/"), 403, "FORBIDDEN");
    expect(res.error.message).toBe("This route needs an admin key");
  });

  it("passes an admin key on", async () => {
    const res = await appAround([signedInAs("t_1", "admin"), requireAdmin]).request("/");
    expect(await res.json()).toEqual({ passed: true });
  });
});
