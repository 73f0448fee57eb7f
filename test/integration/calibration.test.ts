/// <reference types="vite/client" />
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { calibrate } from "../../src/core/calibration/calibration";
import { bandOf } from "../../src/core/calibration/bands";
import { localHttpEmbedder } from "../../src/adapters/embeddings/local-http";
import { cosine } from "../../src/core/ranking/cosine";
import handwrittenText from "../../calibration/pairs.handwritten.jsonl?raw";
import recorded from "../../calibration/bands.use-lite-512.json";

// The real local model (USE-lite, started by the test run) and the shipped table: the seed-004
// example is classified as the seed intends and every hand-written pair keeps the band recorded
// when the table was fitted (`npm run calibrate` rewrites calibration/bands.use-lite-512.json).

interface RecordedPair {
  a: string;
  b: string;
  label: string;
  raw: number;
  similarity: number;
  band: string;
}

const embedder = localHttpEmbedder(env.EMBEDDER_URL ?? "http://127.0.0.1:0", "use-lite-512", 512);

async function similarities<P extends { a: string; b: string }>(pairs: readonly P[]) {
  const texts = [...new Set(pairs.flatMap((p) => [p.a, p.b]))];
  const vectors = await embedder.embed(texts);
  const byText = new Map(texts.map((t, i) => [t, vectors[i]!]));
  return pairs.map((p) => {
    const rawCosine = cosine(byText.get(p.a)!, byText.get(p.b)!);
    return { ...p, rawCosine, similarity: calibrate(rawCosine, embedder.scale.calibration) };
  });
}

describe("calibrated similarity on the local model (use-lite-512)", () => {
  it("counts seed 004's consciousness questions as repeats (> 0.80) and an unrelated question as new (< 0.60)", async () => {
    const first = "What evidence supports machine consciousness?";
    const [second, third, unrelated] = await similarities([
      { a: first, b: "Can we prove AI systems are conscious?" },
      { a: first, b: "How do we know if AI has subjective experience?" },
      { a: first, b: "What's the best way to grow tomatoes on a balcony?" },
    ]);
    expect(embedder.scale.calibration).not.toBeNull();
    expect(second!.rawCosine).toBeLessThan(0.7); // raw cosine alone would not block it
    expect(second!.similarity).toBeGreaterThan(0.8);
    expect(third!.similarity).toBeGreaterThan(0.8);
    expect(unrelated!.similarity).toBeLessThan(0.6);
  });

  it("keeps every hand-written regression pair in its recorded band", async () => {
    const handwritten = handwrittenText
      .split("\n")
      .filter((line) => line.trim())
      .map((line) => JSON.parse(line) as { a: string; b: string; label: string });
    const pairs = (recorded as { model: string; pairs: RecordedPair[] }).pairs;
    expect(pairs.map((p) => [p.a, p.b, p.label])).toEqual(handwritten.map((p) => [p.a, p.b, p.label]));

    const now = await similarities(pairs);
    for (const [i, p] of now.entries()) {
      expect(p.rawCosine, `${p.a} / ${p.b}`).toBeCloseTo(pairs[i]!.raw, 3);
      expect(bandOf(p.similarity), `${p.a} / ${p.b}: ${p.similarity}`).toBe(pairs[i]!.band);
    }
  });

  it("puts every hand-written paraphrase at ≥ 0.80 and keeps unrelated pairs below related ones on average", async () => {
    const handwritten = (recorded as { pairs: RecordedPair[] }).pairs;
    const now = await similarities(handwritten);
    const mean = (label: string) => {
      const of = now.filter((p) => p.label === label);
      return of.reduce((s, p) => s + p.similarity, 0) / of.length;
    };
    expect(now.filter((p) => p.label === "paraphrase").every((p) => p.similarity >= 0.8)).toBe(true);
    expect(mean("unrelated")).toBeLessThan(0.6);
    expect(mean("unrelated")).toBeLessThan(mean("related"));
    expect(mean("related")).toBeLessThan(mean("paraphrase"));
  });
});
