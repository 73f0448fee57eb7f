/**
 * The show object's storage schema is versioned (src/features/shows/migrations.ts): an object stored by an
 * older deployment wakes, migrates in place and keeps its rows; nothing is dropped on wake.
 * Internals are reached through runInDurableObject only.
 */
import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { migrateShowStorage, SHOW_MIGRATIONS, showSchemaVersion } from "../../src/features/shows/migrations";
import { ShowMemory } from "../../workers/show-memory";

const LATEST = Math.max(...SHOW_MIGRATIONS.map((m) => m.version));
const T0 = Date.UTC(2025, 9, 19, 10, 0);

const showStub = (name: string) => env.SHOW_MEMORY.get(env.SHOW_MEMORY.idFromName(`t_migrations:${name}`));

function insertQuestion(sql: SqlStorage, id: string, text: string, askedAt: number) {
  sql.exec("INSERT INTO show_questions (id, text, asked_at, source) VALUES (?, ?, ?, 'added')", id, text, askedAt);
}

const tables = (sql: SqlStorage) =>
  sql
    .exec<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE '\\_cf%' ESCAPE '\\' ORDER BY name")
    .toArray()
    .map((r) => r.name);

describe("ShowMemory storage migrations", () => {
  it("brings a new object to the latest version and records each migration once", async () => {
    const stub = showStub("fresh");
    const recorded = await runInDurableObject(stub, (_o: ShowMemory, state) =>
      state.storage.sql.exec<{ version: number; name: string }>("SELECT version, name FROM _migrations ORDER BY version").toArray(),
    );
    expect(recorded.map((r) => r.version)).toEqual(SHOW_MIGRATIONS.map((m) => m.version));
    expect(await runInDurableObject(stub, (_o: ShowMemory, state) => tables(state.storage.sql))).toEqual([
      "_migrations",
      "show_meta",
      "show_overrides",
      "show_questions",
      "show_rankings",
    ]);
  });

  it("wakes an object stored before the schema was versioned, migrates it and keeps its rows and window", async () => {
    const stub = showStub("legacy");
    const after = await runInDurableObject(stub, async (_o: ShowMemory, state) => {
      const sql = state.storage.sql;
      // What an older deployment left: its tables and rows, the empty placeholder table, no _migrations.
      sql.exec("DROP TABLE _migrations");
      sql.exec("CREATE TABLE questions (id TEXT PRIMARY KEY)");
      insertQuestion(sql, "q_old_1", "Who built the first telescope?", T0);
      insertQuestion(sql, "q_old_2", "Why is the sky blue?", T0 + 60_000);
      sql.exec("INSERT INTO show_meta (key, value) VALUES ('startedAt', ?)", String(T0));
      expect(showSchemaVersion(sql)).toBe(0);

      const woken = new ShowMemory(state, env); // what the runtime does when the object wakes
      await state.blockConcurrencyWhile(async () => {}); // its constructor's migration runs first
      return {
        version: showSchemaVersion(sql),
        tables: tables(sql),
        window: woken["store"].windowIds(),
        status: woken.status(T0 + 120_000),
      };
    });
    expect(after.version).toBe(LATEST);
    expect(after.tables).toEqual(["_migrations", "show_meta", "show_overrides", "show_questions", "show_rankings"]);
    expect(after.window).toEqual(["q_old_1", "q_old_2"]);
    expect(after.status).toMatchObject({ questionCount: 2, questionsInMemory: 2, startedAt: T0 });
  });

  it("applies only the migrations an object at an older version lacks, keeps a placeholder table that holds rows, and applies nothing on the next wake", async () => {
    const stub = showStub("version-1");
    const outcome = await runInDurableObject(stub, (_o: ShowMemory, state) => {
      const sql = state.storage.sql;
      const tx = <T>(fn: () => T): T => state.storage.transactionSync(fn);
      sql.exec("DELETE FROM _migrations WHERE version > 1");
      sql.exec("CREATE TABLE questions (id TEXT PRIMARY KEY)");
      sql.exec("INSERT INTO questions (id) VALUES ('someone_wrote_here')");
      insertQuestion(sql, "q_kept", "Is Pluto a planet?", T0);
      const first = migrateShowStorage(sql, tx);
      const second = migrateShowStorage(sql, tx);
      return {
        first,
        second,
        placeholderRows: sql.exec<{ n: number }>("SELECT COUNT(*) AS n FROM questions").one().n,
        questions: sql
          .exec<{ id: string }>("SELECT id FROM show_questions")
          .toArray()
          .map((r) => r.id),
      };
    });
    expect(outcome.first).toEqual(SHOW_MIGRATIONS.filter((m) => m.version > 1).map((m) => m.version));
    expect(outcome.second).toEqual([]);
    expect(outcome.placeholderRows).toBe(1);
    expect(outcome.questions).toEqual(["q_kept"]);
  });

  it("rolls a failing migration back whole and leaves the version where it was", async () => {
    const stub = showStub("failing");
    const outcome = await runInDurableObject(stub, (_o: ShowMemory, state) => {
      const sql = state.storage.sql;
      const broken = [
        ...SHOW_MIGRATIONS,
        {
          version: LATEST + 1,
          name: "half_done",
          up: (s: SqlStorage) => {
            s.exec("CREATE TABLE half_done (x INTEGER)");
            throw new Error("migration bug");
          },
        },
      ];
      let error: unknown = null;
      try {
        migrateShowStorage(sql, (fn) => state.storage.transactionSync(fn), broken);
      } catch (e) {
        error = e;
      }
      return { error: String(error), version: showSchemaVersion(sql), tables: tables(sql) };
    });
    expect(outcome.error).toContain("migration bug");
    expect(outcome.version).toBe(LATEST);
    expect(outcome.tables).not.toContain("half_done");
  });
});
