import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import type { AppEnv } from "../../src/http/context";
import { handleError, OVERLOADED_RETRY_AFTER_S, UNAVAILABLE_RETRY_AFTER_S } from "../../src/http/errors";

/** An error as the runtime throws it from a Durable Object stub, with its flags. */
function runtimeError(flags: { retryable?: boolean; overloaded?: boolean }) {
  return Object.assign(new Error("Durable Object reset because its code was updated."), flags);
}

async function answerTo(error: Error) {
  const app = new Hono<AppEnv>()
    .get("/", () => {
      throw error;
    })
    .onError(handleError);
  const response = await app.request("/");
  return {
    status: response.status,
    retryAfter: response.headers.get("retry-after"),
    json: (await response.json()) as { error: { code: string; message: string } },
  };
}

describe("handleError for errors the runtime flags as transient", () => {
  it("answers a retryable error with 503 UNAVAILABLE and a short Retry-After, never its own message", async () => {
    const answer = await answerTo(runtimeError({ retryable: true }));
    expect(answer).toMatchObject({ status: 503, retryAfter: String(UNAVAILABLE_RETRY_AFTER_S), json: { error: { code: "UNAVAILABLE" } } });
    expect(answer.json.error.message).not.toContain("Durable Object");
  });

  it("asks for a longer wait when the object is overloaded", async () => {
    expect(await answerTo(runtimeError({ overloaded: true, retryable: false }))).toMatchObject({
      status: 503,
      retryAfter: String(OVERLOADED_RETRY_AFTER_S),
    });
  });

  it("keeps any other error a 500 INTERNAL without Retry-After", async () => {
    expect(await answerTo(runtimeError({ retryable: false }))).toMatchObject({
      status: 500,
      retryAfter: null,
      json: { error: { code: "INTERNAL" } },
    });
  });
});
