import { describe, expect, it } from "vitest";
import { err, ok, type Result } from "../../src/core/base/result";

describe("Result", () => {
  it("narrows on ok: value on success, the tagged error on failure", () => {
    const parse = (s: string): Result<number, "not_a_number"> => (Number.isFinite(Number(s)) ? ok(Number(s)) : err("not_a_number"));
    const good = parse("42");
    const bad = parse("x");
    expect(good).toEqual({ ok: true, value: 42 });
    expect(bad).toEqual({ ok: false, error: "not_a_number" });
    expect(good.ok ? good.value + 1 : null).toBe(43);
    expect(bad.ok ? null : bad.error).toBe("not_a_number");
  });
});
