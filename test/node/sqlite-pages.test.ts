import { mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Miniflare } from "miniflare";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
// @ts-expect-error: plain ESM module shared with the capacity bench, no type declarations
import { bytesByTable, sqliteImage } from "../../bench/support/sqlite-pages.mjs";

// The capacity bench reads a running local D1's file: its recent writes are still in the
// write-ahead log, and a reader that skipped the log would count a database without them.
describe("bytes of a local D1 database read from its files", () => {
  const dir = mkdtempSync(join(tmpdir(), "sqlite-pages-"));
  const mf = new Miniflare({
    modules: true,
    script: "export default { fetch: () => new Response() }",
    d1Databases: ["DB"],
    defaultPersistRoot: dir,
  });
  const file = () =>
    join(
      dir,
      readdirSync(dir, { recursive: true }).find(
        (f) => String(f).includes("D1DatabaseObject") && String(f).endsWith(".sqlite") && !String(f).endsWith("metadata.sqlite"),
      )! as string,
    );

  beforeAll(async () => {
    const db = await mf.getD1Database("DB");
    await db.exec("CREATE TABLE small (a TEXT)");
    await db.exec("CREATE TABLE wide (a BLOB)");
    await db.prepare("INSERT INTO small VALUES ('x')").run();
    // 100 rows of 3,000 bytes: one a page, and no more than fits 100 pages with their b-tree's interior page.
    await db.batch(Array.from({ length: 100 }, () => db.prepare("INSERT INTO wide VALUES (randomblob(3000))")));
  });
  afterAll(async () => {
    await mf.dispose();
    rmSync(dir, { recursive: true, force: true });
  });

  it("counts the rows still in the write-ahead log, table by table", async () => {
    expect(statSync(`${file()}-wal`).size).toBeGreaterThan(100 * 3000);
    const { pageSize, total, byTable } = await bytesByTable(sqliteImage(file()));
    expect(pageSize).toBe(4096);
    expect(byTable.wide).toBeGreaterThanOrEqual(100 * pageSize);
    expect(byTable.wide).toBeLessThanOrEqual(102 * pageSize);
    expect(byTable.small).toBe(pageSize);
    expect(total).toBeGreaterThan(byTable.wide! + byTable.small!);
  });

  it("measures the same database after SQL that rewrites it (wider vectors)", async () => {
    const image = sqliteImage(file());
    const wider = await bytesByTable(image, "UPDATE wide SET a = zeroblob(6000)");
    // 6,000 bytes no longer fit one page: each row takes its page and an overflow page.
    expect(wider.byTable.wide).toBeGreaterThanOrEqual(200 * 4096);
  });
});
