import { describe, expect, it } from "vitest";
import { AppError } from "../../../src/http/errors";
import { limitBody, MAX_DRAINED_BODY_BYTES, utf8Text } from "../../../src/http/middleware/body";
import { expectError } from "../../support/client";
import { appAround, LATIN1, streamOf } from "../../support/middleware";

const echo = appAround([limitBody(8)], async (c) => c.text(await c.req.text()));
const post = (body: BodyInit, headers: Record<string, string> = {}) => echo.request("/", { method: "POST", body, headers });

describe("limitBody", () => {
  it("passes a body within the limit on whole, its length declared or not", async () => {
    expect(await (await post("12345678", { "content-length": "8" })).text()).toBe("12345678");
    expect(await (await post(streamOf("1234", "5678"))).text()).toBe("12345678");
  });

  it("refuses a body over the limit with 413 in the error envelope, its length declared or not", async () => {
    const declared = await expectError(post("123456789", { "content-length": "9" }), 413, "PAYLOAD_TOO_LARGE");
    expect(declared.error.message).toBe("The request body is larger than 8 bytes");
    await expectError(post(streamOf("1234", "5678", "9")), 413, "PAYLOAD_TOO_LARGE");
  });

  it("reads the rest of an over-limit body before answering, and cuts off one past MAX_DRAINED_BODY_BYTES", async () => {
    const chunk = new Uint8Array(1024 * 1024);
    const sender = (chunks: number) => {
      const seen = { pulled: 0, cancelled: false };
      const body = new ReadableStream<Uint8Array>({
        pull(controller) {
          if (seen.pulled++ < chunks) controller.enqueue(chunk);
          else controller.close();
        },
        cancel() {
          seen.cancelled = true;
        },
      });
      return { body, seen };
    };
    const small = sender(3);
    await expectError(post(small.body), 413, "PAYLOAD_TOO_LARGE");
    expect(small.seen).toEqual({ pulled: 4, cancelled: false });
    const endless = sender(Number.POSITIVE_INFINITY);
    await expectError(post(endless.body), 413, "PAYLOAD_TOO_LARGE");
    expect(endless.seen.cancelled).toBe(true);
    expect(endless.seen.pulled * chunk.byteLength).toBeLessThan(MAX_DRAINED_BODY_BYTES + 4 * chunk.byteLength);
  });
});

describe("utf8Text", () => {
  it("decodes UTF-8, dropping a leading byte order mark", async () => {
    expect(utf8Text(await new Response("\uFEFFcafé €").arrayBuffer())).toBe("café €");
  });

  it("refuses bytes that are not UTF-8 with a 400 BAD_REQUEST", () => {
    const refused = (() => {
      try {
        utf8Text(LATIN1.buffer);
      } catch (error) {
        return error;
      }
    })();
    expect(refused).toBeInstanceOf(AppError);
    expect(refused).toMatchObject({ code: "BAD_REQUEST", status: 400, message: "The request body is not valid UTF-8" });
  });
});
