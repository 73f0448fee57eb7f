import { describe, expect, it } from "vitest";
import { BoundedMap } from "../../src/core/base/bounded-map";

describe("BoundedMap: a per-isolate cache bounded in size", () => {
  it("starts again when a new key would take it past its bound", () => {
    const cache = new BoundedMap<string, number>(2);
    cache.set("a", 1).set("b", 2);
    cache.set("c", 3);
    expect([...cache.keys()]).toEqual(["c"]);
  });

  it("keeps its entries when a key it holds is set again", () => {
    const cache = new BoundedMap<string, number>(2);
    cache.set("a", 1).set("b", 2).set("a", 3);
    expect(Object.fromEntries(cache)).toEqual({ a: 3, b: 2 });
  });
});
