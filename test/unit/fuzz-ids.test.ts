import { describe, expect, it } from "vitest";
import { IdPool, prefixesFor } from "../../fuzz/ids";

const ADMIN_KEY = "rk_AdminKeyOfTheFuzzer0123456789abcdef";
const CLIENT_KEY = "rk_ClientKeyOfTheFuzzer0123456789abcde";

describe("IdPool (fuzz/ids.ts)", () => {
  it("keeps the ids of the fuzzer's own keys out of the pool when GET /v1/admin/keys lists them", () => {
    const pool = new IdPool([ADMIN_KEY, CLIENT_KEY]);
    pool.collect({
      keys: [
        { id: "key_ownAdmin000001", keyPrefix: ADMIN_KEY.slice(0, 10), role: "admin" },
        { id: "key_ownClient00001", keyPrefix: CLIENT_KEY.slice(0, 10), role: "client" },
        { id: "key_fuzzMade000001", keyPrefix: "rk_zzzzzzz", role: "client" },
      ],
    });
    const picked = new Set([0, 1, 2, 3, 4].map((i) => pool.pick(prefixesFor("/v1/admin/keys/{id}", "id"), i)));
    expect([...picked]).toEqual(["key_fuzzMade000001"]);
  });

  it("keeps out an answer that carries one of its keys in full", () => {
    const pool = new IdPool([CLIENT_KEY]);
    pool.collect({ id: "key_ownClient00001", key: CLIENT_KEY, keyPrefix: CLIENT_KEY.slice(0, 10) });
    expect(pool.pick(["key"], 0)).toBeUndefined();
  });

  it("collects every id when it is told of no keys", () => {
    const pool = new IdPool();
    pool.collect({ keys: [{ id: "key_ownAdmin000001", keyPrefix: ADMIN_KEY.slice(0, 10) }], memory: { id: "mem_abcdefgh12" } });
    expect(pool.pick(["key"], 0)).toBe("key_ownAdmin000001");
    expect(pool.pick(["mem"], 0)).toBe("mem_abcdefgh12");
  });
});
