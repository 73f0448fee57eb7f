import { describe, expect, it } from "vitest";
import { cosine } from "../../src/core/ranking/cosine";
import { usesFloatScanOnly, VectorSnapshot } from "../../src/adapters/vectors/snapshot";
import { seededNumbers } from "../support/seeded";

const random = seededNumbers;

describe("VectorSnapshot", () => {
  it("ranks exactly as a plain cosine scan does", () => {
    const snapshot = new VectorSnapshot(16, "e", 1, 2);
    const vectors = Array.from({ length: 200 }, (_, i) => random(16, i + 1));
    vectors.forEach((v, i) => snapshot.upsert(`v${i}`, v, { group: i % 2 === 0 ? "even" : "odd" }));
    const q = random(16, 999);
    const expected = vectors
      .map((v, i) => ({ id: `v${i}`, score: cosine(q, v) }))
      .sort((a, b) => b.score - a.score)
      .slice(0, 10);
    const got = snapshot.query(q, 10);
    expect(got.map((m) => m.id)).toEqual(expected.map((m) => m.id));
    got.forEach((m, i) => expect(m.score).toBeCloseTo(expected[i]!.score, 5));
    expect(snapshot.query(q, 500, { group: "odd" }).every((m) => Number(m.id.slice(1)) % 2 === 1)).toBe(true);
  });

  it("replaces on upsert and fills the hole on delete", () => {
    const snapshot = new VectorSnapshot(2, "e", 1);
    snapshot.upsert("a", [1, 0], {});
    snapshot.upsert("b", [0, 1], {});
    snapshot.upsert("c", [1, 1], {});
    snapshot.upsert("a", [0, 2], {});
    expect(snapshot.size).toBe(3);
    snapshot.delete("a");
    snapshot.delete("missing");
    expect(snapshot.size).toBe(2);
    expect(snapshot.query([0, 1], 5).map((m) => m.id)).toEqual(["b", "c"]);
    expect([...snapshot.similarities([1, 0], ["b", "c", "a"]).keys()]).toEqual(["b", "c"]);
  });

  it("ranks short vectors (too few dimensions for sign codes) exactly, however many there are", () => {
    const snapshot = new VectorSnapshot(8, "e", 1);
    const vectors = Array.from({ length: 3000 }, (_, i) => random(8, i + 1));
    vectors.forEach((v, i) => snapshot.upsert(`v${i}`, v, {}));
    expect(usesFloatScanOnly(snapshot.size, 10, 8)).toBe(true);
    for (let q = 0; q < 20; q++) {
      const query = random(8, 70_000 + q);
      expect(snapshot.query(query, 10).map((m) => m.id)).toEqual(snapshot.exactQuery(query, 10).map((m) => m.id));
    }
  });

  describe("over a collection large enough for the two-stage scan", () => {
    // Clustered vectors, as embeddings of related texts are: near neighbours are meaningfully near.
    const dimensions = 128;
    const centers = Array.from({ length: 50 }, (_, c) => random(dimensions, 10_000 + c));
    const vectors = Array.from({ length: 6000 }, (_, i) => {
      const noise = random(dimensions, i + 1);
      return centers[i % centers.length]!.map((x, k) => x + 0.6 * noise[k]!);
    });
    const snapshot = new VectorSnapshot(dimensions, "e", 1);
    vectors.forEach((v, i) => snapshot.upsert(`v${i}`, v, { half: i % 2 }));

    // 10: a page; 40 and 120: the FAQ search's canonical and variant windows (src/features/faqs/search.ts).
    it.each([10, 40, 120])("finds what the full float scan finds at topK %i, with exact cosine scores", (topK) => {
      expect(usesFloatScanOnly(snapshot.size, topK, dimensions)).toBe(false);
      let found = 0;
      for (let q = 0; q < 50; q++) {
        const query = centers[q]!.map((x, k) => x + 0.6 * random(dimensions, 50_000 + q)[k]!);
        const exact = snapshot.exactQuery(query, topK);
        const got = snapshot.query(query, topK);
        const ids = new Set(got.map((m) => m.id));
        found += exact.filter((m) => ids.has(m.id)).length;
        for (const m of got) expect(m.score).toBeCloseTo(cosine(query, vectors[Number(m.id.slice(1))]!), 5);
      }
      expect(found / (50 * topK)).toBeGreaterThanOrEqual(0.99);
    });

    it("applies the filter before the first stage and stays consistent after deletes", () => {
      const query = vectors[7]!;
      expect(snapshot.query(query, 20, { half: 0 }).every((m) => Number(m.id.slice(1)) % 2 === 0)).toBe(true);
      expect(snapshot.query(query, 1)[0]!.id).toBe("v7");
      snapshot.delete("v7");
      snapshot.delete("v0");
      const after = snapshot.query(query, 5);
      expect(after.map((m) => m.id)).not.toContain("v7");
      expect(after.map((m) => m.id)).toEqual(snapshot.exactQuery(query, 5).map((m) => m.id));
    });
  });
});
