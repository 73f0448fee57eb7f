/**
 * Errors by type at the storage boundary: real D1 failures come out of Services.db as
 * ConstraintViolation / StorageUnavailable, and the error envelope decides by class, never by
 * message text, and never shows SQL.
 */
import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { ConstraintViolation, StorageUnavailable, storageError, withStorageErrors } from "../../src/platform/db/errors";
import type { AppEnv } from "../../src/http/context";
import { handleError } from "../../src/http/errors";
import { createLogger } from "../../src/platform/observe/log";
import { createServices } from "../../src/app/services";

const insertTenant = (db: D1Database, id: string, name: string | null = "t") =>
  db.prepare("INSERT INTO tenants (id, name, created_at) VALUES (?, ?, ?)").bind(id, name, Date.now());

async function caught(work: Promise<unknown>): Promise<unknown> {
  try {
    await work;
  } catch (error) {
    return error;
  }
  throw new Error("expected a failure");
}

describe("withStorageErrors (Services.db)", () => {
  it("turns a real duplicate key into ConstraintViolation('unique'), from run() and from batch()", async () => {
    const db = createServices(env).db;
    await insertTenant(db, "t_dup_1").run();
    const single = await caught(insertTenant(db, "t_dup_1").run());
    expect(single).toBeInstanceOf(ConstraintViolation);
    expect(single).toMatchObject({ constraint: "unique" });
    expect(String((single as Error).cause)).toMatch(/UNIQUE constraint failed/);

    const batched = await caught(db.batch([insertTenant(db, "t_dup_2"), insertTenant(db, "t_dup_2")]));
    expect(batched).toMatchObject({ name: "ConstraintViolation", constraint: "unique" });
    // The batch is one transaction: the first insert was rolled back with the second.
    expect(await db.prepare("SELECT COUNT(*) AS n FROM tenants WHERE id = ?").bind("t_dup_2").first("n")).toBe(0);
  });

  it("turns a NOT NULL violation into ConstraintViolation('not_null') and leaves reads and other errors as they are", async () => {
    const db = withStorageErrors(env.DB);
    expect(await caught(insertTenant(db, "t_null", null).run())).toMatchObject({ constraint: "not_null" });
    expect(await db.prepare("SELECT 1 AS one").first("one")).toBe(1);
    expect(await db.prepare("SELECT ? AS v").bind(7).raw()).toEqual([[7]]);
    const syntax = await caught(db.prepare("SELEKT 1").all());
    expect(syntax).not.toBeInstanceOf(ConstraintViolation);
    expect(syntax).not.toBeInstanceOf(StorageUnavailable);
  });

  it("recognises D1's retryable failures as StorageUnavailable", () => {
    for (const message of [
      "D1_ERROR: D1 DB is overloaded. Requests queued for too long.",
      "Network connection lost.",
      "SQLITE_BUSY: database is locked",
    ]) {
      expect(storageError(new Error(message))).toBeInstanceOf(StorageUnavailable);
    }
    const other = new Error("no such table: nope");
    expect(storageError(other)).toBe(other);
  });
});

describe("the error envelope decides by type", () => {
  async function answerTo(thrown: () => Promise<never>) {
    const app = new Hono<AppEnv>()
      .use(async (c, next) => {
        c.set("requestId", "req-typed");
        c.set(
          "log",
          createLogger({}, () => {}),
        );
        await next();
      })
      .get("/", thrown)
      .onError(handleError);
    const ctx = createExecutionContext();
    const response = await app.fetch(new Request("https://recall.test/"), env, ctx);
    await waitOnExecutionContext(ctx);
    return { status: response.status, retryAfter: response.headers.get("retry-after"), text: await response.text() };
  }

  it("answers a duplicate key that reached it as 409 CONFLICT, without the SQL text", async () => {
    const db = createServices(env).db;
    await insertTenant(db, "t_dup_http").run();
    const violation = await caught(insertTenant(db, "t_dup_http").run());
    const { status, text } = await answerTo(() => Promise.reject(violation));
    expect(status).toBe(409);
    expect(JSON.parse(text)).toEqual({ error: { code: "CONFLICT", message: "This record already exists", requestId: "req-typed" } });
    expect(text).not.toMatch(/tenants|UNIQUE|SQLITE/);
  });

  it("answers a busy database as 503 UNAVAILABLE with Retry-After, whatever the message says", async () => {
    const busy = new StorageUnavailable({ cause: new Error("anything at all") });
    const { status, retryAfter, text } = await answerTo(() => Promise.reject(busy));
    expect(status).toBe(503);
    expect(retryAfter).toBe("1");
    expect(JSON.parse(text).error.code).toBe("UNAVAILABLE");
    // A plain Error whose message merely looks like a storage error is not classified here.
    expect((await answerTo(() => Promise.reject(new Error("SQLITE_BUSY")))).status).toBe(500);
  });
});
