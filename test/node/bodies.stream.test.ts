import { request } from "node:http";
import { describe, expect, inject, it } from "vitest";

/**
 * Bodies sent chunked (no Content-Length) over a real socket to the Worker under Miniflare: the
 * limit is counted as the body streams, and an over-limit body is a 413 in the envelope every
 * time (it was a reset connection, or behind `wrangler dev` a plain-text 503, in about half the tries).
 */
const KIB = 1024;

function postChunked(path: string, totalBytes: number, { chunkBytes = 16 * KIB, contentType = "application/json" } = {}) {
  return new Promise<{ status: number; body: string } | { error: string }>((resolve) => {
    const req = request(
      `${inject("recallUrl")}${path}`,
      {
        method: "POST",
        agent: false,
        headers: { authorization: `Bearer ${inject("recallKey")}`, "content-type": contentType, "transfer-encoding": "chunked" },
      },
      (res) => {
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => (body += chunk));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
        res.on("error", (error) => resolve({ error: String(error) }));
      },
    );
    req.on("error", (error: NodeJS.ErrnoException) => resolve({ error: error.code ?? error.message }));
    // A JSON string of `totalBytes` bytes, written chunk by chunk with pauses, as a slow client would.
    const prefix = '{"scope":"stream","memoryType":"fact","content":"';
    const suffix = '"}';
    let left = totalBytes - prefix.length - suffix.length;
    req.write(prefix);
    const writeMore = () => {
      if (left <= 0) return void req.end(suffix);
      const n = Math.min(chunkBytes, left);
      left -= n;
      if (req.write("x".repeat(n))) setImmediate(writeMore);
      else req.once("drain", writeMore);
    };
    writeMore();
  });
}

describe("POST /v1/memories with a chunked body", () => {
  it("answers 413 PAYLOAD_TOO_LARGE in the envelope to every body over 256 KiB (20 of 20)", { timeout: 60_000 }, async () => {
    const outcomes = [];
    for (let i = 0; i < 20; i++) outcomes.push(await postChunked("/v1/memories", 300 * KIB + i * 997));
    const summary = outcomes.map((o) =>
      "error" in o ? `error ${o.error}` : `${o.status} ${(JSON.parse(o.body) as { error?: { code?: string } }).error?.code ?? ""}`,
    );
    expect(summary).toEqual(Array(20).fill("413 PAYLOAD_TOO_LARGE"));
  });

  it("answers 413 to a body far over the limit (5 MiB) without reading it all into memory", { timeout: 60_000 }, async () => {
    const outcome = await postChunked("/v1/memories", 5 * KIB * KIB, { chunkBytes: 64 * KIB });
    expect(outcome).toMatchObject({ status: 413 });
  });

  it("still takes a chunked body under the limit (the content is over 8000 characters: a 400 from the validator, not a 413)", async () => {
    const outcome = await postChunked("/v1/memories", 200 * KIB);
    expect(outcome).toMatchObject({ status: 400 });
    expect((outcome as { body: string }).body).toContain("VALIDATION_FAILED");
  });
});
