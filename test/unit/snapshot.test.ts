import { describe, expect, it } from "vitest";
import { cosine } from "../../src/ranking/cosine";
import { VectorSnapshot } from "../../src/vectors/snapshot";

function random(n: number, seed: number): number[] {
  let x = seed;
  return Array.from({ length: n }, () => {
    x = (x * 1103515245 + 12345) % 2 ** 31;
    return x / 2 ** 31 - 0.5;
  });
}

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
});
