import { describe, expect, it } from "vitest";
import { rawBody } from "../../../src/http/middleware/raw-body";
import { expectError } from "../../support/client";
import { appAround, LATIN1, streamOf } from "../../support/middleware";

const echo = (json = false) => appAround([rawBody({ maxBytes: 16, json })], (c) => c.text(c.get("rawBody")));
const send = (body: BodyInit | undefined, headers: Record<string, string> = {}, json = false) =>
  echo(json).request("/", { method: "POST", body, headers });

describe("rawBody", () => {
  it("keeps the body as it was sent, unparsed, for the route to verify", async () => {
    expect(await (await send('{ "b":1, "a":2 }')).text()).toBe('{ "b":1, "a":2 }');
    expect(await (await send("{not json", { "content-type": "text/plain" })).text()).toBe("{not json");
    expect(await (await send(undefined)).text()).toBe("");
  });

  it("drops a leading byte order mark from the text", async () => {
    expect(await (await send("\uFEFF{}")).text()).toBe("{}");
  });

  it("refuses a body over the limit with 413, its length declared or not", async () => {
    await expectError(send("x".repeat(17), { "content-length": "17" }), 413, "PAYLOAD_TOO_LARGE");
    await expectError(send(streamOf("x".repeat(10), "x".repeat(10))), 413, "PAYLOAD_TOO_LARGE");
  });

  it("refuses bytes that are not UTF-8 with 400", async () => {
    const res = await expectError(send(LATIN1), 400, "BAD_REQUEST");
    expect(res.error.message).toBe("The request body is not valid UTF-8");
  });

  it("with json, refuses another content type with 415, but a body declared too large is a 413 first", async () => {
    expect(await (await send("{}", { "content-type": "application/json" }, true)).text()).toBe("{}");
    await expectError(send("{}", { "content-type": "text/plain" }, true), 415, "UNSUPPORTED_MEDIA_TYPE");
    await expectError(send("{}", {}, true), 415, "UNSUPPORTED_MEDIA_TYPE");
    await expectError(send("x".repeat(17), { "content-type": "text/plain", "content-length": "17" }, true), 413, "PAYLOAD_TOO_LARGE");
  });
});
