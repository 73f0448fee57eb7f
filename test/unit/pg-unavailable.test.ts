import { describe, expect, it } from "vitest";
import { StoreUnavailableError, type FaqStore } from "../../src/features/faqs/port";
import { guardUnavailable, isUnavailable } from "../../src/features/faqs/postgres/unavailable";

const sqlError = (code: string) => Object.assign(new Error("sql"), { code });

describe("isUnavailable", () => {
  it("calls connection faults unavailable and SQL errors not", () => {
    expect(isUnavailable(new Error("Connection terminated unexpectedly"))).toBe(true);
    expect(isUnavailable(new Error("Failed query: select 1", { cause: new Error("Query read timeout") }))).toBe(true);
    expect(isUnavailable(new Error("Failed query", { cause: sqlError("08006") }))).toBe(true);
    expect(isUnavailable(sqlError("57P01"))).toBe(true);
    expect(isUnavailable(new Error("Failed query", { cause: sqlError("42P01") }))).toBe(false);
    expect(isUnavailable(sqlError("23505"))).toBe(false);
  });
});

describe("guardUnavailable", () => {
  const store = (get: FaqStore["get"]) => ({ backend: "postgres", get }) as unknown as FaqStore;

  it("turns a hang into StoreUnavailableError at the deadline, and leaves SQL errors as they are", async () => {
    const hung = guardUnavailable(
      store(() => new Promise(() => {})),
      { deadlineMs: 50 },
    );
    await expect(hung.get("t", "f")).rejects.toBeInstanceOf(StoreUnavailableError);
    const broken = guardUnavailable(
      store(() => Promise.reject(sqlError("42703"))),
      { deadlineMs: 50 },
    );
    await expect(broken.get("t", "f")).rejects.toMatchObject({ code: "42703" });
    const down = guardUnavailable(
      store(() => Promise.reject(new Error("connect ECONNREFUSED"))),
      { deadlineMs: 50 },
    );
    await expect(down.get("t", "f")).rejects.toBeInstanceOf(StoreUnavailableError);
    expect(hung.backend).toBe("postgres");
  });
});
