import { describe, expect, it } from "vitest";
import { codeWords, packPage, PAGE_ROWS, pageCount, parseManifest, unpackPage } from "../../src/adapters/vectors/packed";
import { VectorSnapshot } from "../../src/adapters/vectors/snapshot";
import { seededNumbers } from "../support/seeded";

const random = seededNumbers;

describe("snapshot pages (packed layout)", () => {
  it("unpacks exactly the rows it packed, vectors then sign codes", () => {
    const snapshot = new VectorSnapshot(40, "e", 1);
    for (let i = 0; i < 7; i++) snapshot.upsert(`v${i}`, random(40, i + 1), {});
    const { vectors, codes } = snapshot.rows();
    const page = unpackPage(packPage(vectors, codes, 40, 2, 6), 40);
    expect(page.rows).toBe(4);
    expect(codeWords(40)).toBe(2);
    expect([...page.vectors]).toEqual([...vectors.subarray(2 * 40, 6 * 40)]);
    expect([...page.codes]).toEqual([...codes.subarray(2 * 2, 6 * 2)]);
  });

  it("refuses a page whose size does not fit the dimensions", () => {
    const snapshot = new VectorSnapshot(8, "e", 1);
    snapshot.upsert("a", random(8, 1), {});
    const { vectors, codes } = snapshot.rows();
    expect(() => unpackPage(packPage(vectors, codes, 8, 0, 1), 16)).toThrow(/does not hold 16-d rows/);
  });

  it("a snapshot filled from packed rows ranks exactly as the one they came from", () => {
    const source = new VectorSnapshot(32, "e", 1);
    for (let i = 0; i < 300; i++) source.upsert(`v${i}`, random(32, i + 7), { even: i % 2 === 0 });
    const { ids, vectors, codes } = source.rows();
    const page = unpackPage(packPage(vectors, codes, 32, 0, ids.length), 32);
    const copy = new VectorSnapshot(32, "e", 1);
    ids.forEach((id, i) =>
      copy.upsertPacked(id, page.vectors.subarray(i * 32, (i + 1) * 32), page.codes.subarray(i, i + 1), { even: i % 2 === 0 }),
    );
    const q = random(32, 4242);
    expect(copy.query(q, 10)).toEqual(source.query(q, 10));
    expect(copy.query(q, 10, { even: false })).toEqual(source.query(q, 10, { even: false }));
  });

  it("a snapshot filled by whole pages ranks exactly as the one they came from, and refuses a row it holds", () => {
    const source = new VectorSnapshot(64, "e", 1);
    for (let i = 0; i < 600; i++) source.upsert(`v${i}`, random(64, i + 3), { even: i % 2 === 0 }, 1000 + i);
    const { ids, metadata, updatedAt, vectors, codes } = source.rows();
    const copy = new VectorSnapshot(64, "e", 1, 16);
    for (const [from, to] of [
      [0, 250],
      [250, 600],
    ] as const) {
      const page = unpackPage(packPage(vectors, codes, 64, from, to), 64);
      copy.appendPacked(ids.slice(from, to), metadata.slice(from, to), updatedAt.slice(from, to), page.vectors, page.codes);
    }
    const q = random(64, 99);
    expect(copy.query(q, 10)).toEqual(source.query(q, 10));
    expect(copy.query(q, 10, { even: true })).toEqual(source.query(q, 10, { even: true }));
    expect(copy.rows().updatedAt).toEqual(updatedAt);
    const one = unpackPage(packPage(vectors, codes, 64, 0, 1), 64);
    expect(() => copy.appendPacked(["v0"], [{}], [1], one.vectors, one.codes)).toThrow(/in the snapshot already/);
  });

  it("reads back only manifests of its own layout and dimensions", () => {
    const manifest = {
      layout: 1,
      build: "b",
      dimensions: 8,
      ids: ["a", "b"],
      updatedAt: [1, 2],
      metadata: ["{}", '{"scope":"s"}'],
      version: { epoch: "e", counter: 3 },
    };
    expect(parseManifest(JSON.stringify(manifest), 8)).toEqual(manifest);
    expect(parseManifest(JSON.stringify(manifest), 16)).toBeNull();
    expect(parseManifest(JSON.stringify({ ...manifest, layout: 2 }), 8)).toBeNull();
    expect(parseManifest(JSON.stringify({ ...manifest, updatedAt: [1] }), 8)).toBeNull();
    expect(parseManifest(JSON.stringify({ ...manifest, metadata: ["{}"] }), 8)).toBeNull();
    expect(parseManifest(JSON.stringify({ ...manifest, version: undefined }), 8)).toBeNull();
    expect(pageCount(PAGE_ROWS + 1)).toBe(2);
    expect(pageCount(0)).toBe(0);
  });
});
