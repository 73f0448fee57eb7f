import { describe, expect, it } from "vitest";
import { decodablePath } from "../../../src/http/middleware/decodable-path";
import { expectError } from "../../support/client";
import { appAround } from "../../support/middleware";

const app = appAround([decodablePath]);

describe("decodablePath", () => {
  it("passes a path of valid percent-encoding on", async () => {
    expect((await app.request("/v1/sessions/caf%C3%A9/files")).status).toBe(200);
  });

  it("refuses a malformed escape and one that decodes to no text (a lone surrogate) with 400", async () => {
    for (const path of ["/v1/sessions/%zz/files", "/v1/sessions/%E2%82/files", "/v1/sessions/%ED%A0%80/files"]) {
      const res = await expectError(app.request(path), 400, "BAD_REQUEST");
      expect(res.error.message, path).toBe("The request path is not valid percent-encoding");
    }
  });
});
