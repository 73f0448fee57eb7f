import { afterEach, describe, expect, it } from "vitest";
import { DeadlineMissed, forgetBreakers, isSkipped, withDeadline } from "../../src/platform/deadlines/breaker";

const never = () => new Promise<string>(() => {});
const soon = (value: string, ms: number) => () => new Promise<string>((resolve) => setTimeout(() => resolve(value), ms));
// workerd's clock stands still between I/O: the breaker must not depend on it moving.
const frozen = () => 1_000;
const deadline = { ms: 20, breakerKey: "part", part: "the part", now: frozen };

describe("withDeadline: hung parts are skipped, busy ones are not", () => {
  afterEach(forgetBreakers);

  it("a part that answered nothing before the deadline is skipped, without being called, for the next calls", async () => {
    // It answered before this call began, on the same reading of the stopped clock: that is not "meanwhile".
    await withDeadline(soon("earlier", 1), deadline);
    await expect(withDeadline(never, deadline)).rejects.toThrow(new DeadlineMissed("the part", "the part gave no answer within 20 ms"));
    expect(isSkipped("part", frozen())).toBe(true);
    let called = false;
    await expect(
      withDeadline(async () => {
        called = true;
        return "late";
      }, deadline),
    ).rejects.toThrow(/the part is skipped for 15 s more/);
    expect(called).toBe(false);
  });

  it("a part that answered another call meanwhile is busy: only the late call fails, even on a clock that stands still", async () => {
    await withDeadline(soon("warm", 1), deadline);
    const late = withDeadline(never, deadline);
    await withDeadline(soon("meanwhile", 5), deadline);
    await expect(late).rejects.toThrow(DeadlineMissed);
    expect(isSkipped("part", frozen())).toBe(false);
    await expect(withDeadline(soon("next", 1), deadline)).resolves.toBe("next");
  });

  it("an answer closes the breaker; each part has its own", async () => {
    await expect(withDeadline(never, deadline)).rejects.toThrow(DeadlineMissed);
    expect(isSkipped("other", frozen())).toBe(false);
    await expect(withDeadline(soon("ok", 1), { ...deadline, breakerKey: "other" })).resolves.toBe("ok");
    expect(isSkipped("part", frozen() + 15_000)).toBe(false);
  });
});
