import { describe, expect, it } from "vitest";
import { deadlineEmbedder, EmbeddingTimeout } from "../../src/adapters/embeddings/deadline";
import type { Embedder } from "../../src/platform/ports/embedder";
import { shippedScale } from "../../src/core/scale/registry";

/** A model that takes `msPerText` for each text it is given. */
function slowModel(msPerText: number): Embedder {
  return {
    kind: "local",
    model: "slow",
    dimensions: 2,
    languages: ["en"],
    scale: shippedScale("slow"),
    canEmbed: () => true,
    embed: (texts) => new Promise((resolve) => setTimeout(() => resolve(texts.map(() => Float32Array.of(1, 0))), msPerText * texts.length)),
  };
}

describe("embedding deadline", () => {
  it("gives a batch more time than one text: slow per text is not hung", async () => {
    // 100 ms a text: one text alone misses a 60 ms deadline, eight texts (800 ms) meet 60 + 7 × 250 ms.
    const batch = deadlineEmbedder(slowModel(100), { deadlineMs: 60, breakerKey: "batch" });
    await expect(batch.embed(Array.from({ length: 8 }, (_, i) => `text ${i}`))).resolves.toHaveLength(8);
    const single = deadlineEmbedder(slowModel(100), { deadlineMs: 60, breakerKey: "single" });
    await expect(single.embed(["one text"])).rejects.toBeInstanceOf(EmbeddingTimeout);
    // The breaker is open for that model now: the next call fails at once, without asking it.
    const started = Date.now();
    await expect(single.embed(["another"])).rejects.toThrow(/skipped/);
    expect(Date.now() - started).toBeLessThan(50);
  });

  it("keeps using a model that answered another call meanwhile: busy is not hung", async () => {
    // The model answers a quick call while a slow one waits: the slow one fails alone.
    const single = deadlineEmbedder(slowModel(400), { deadlineMs: 150, breakerKey: "busy-single" });
    const quick = deadlineEmbedder(slowModel(10), { deadlineMs: 150, breakerKey: "busy-single" });
    const [late] = await Promise.allSettled([single.embed(["late"]), quick.embed(["answered meanwhile"])]);
    expect(late.status).toBe("rejected");
    await expect(quick.embed(["still in use"])).resolves.toHaveLength(1);
  });
});
