import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { REINDEX_CRON, runCron } from "../../src/app/cron";
import { createServices } from "../../src/app/services";
import { PRINCIPAL_CACHE_MS } from "../../src/features/auth/keys";
import { advanceMove } from "../../src/features/placement/move";
import { MOVED_TABLES } from "../../src/features/placement/moved-rows";
import { newTenant, type TestTenant } from "../support/api";
import { clientWith } from "../support/app";
import { expectError, expectJson, oneAttempt } from "../support/client";

const OPERATOR_KEY = env.RECALL_DEV_API_KEY!;
const placedDb = () => env.DB_1!;
const SEEDED = 24;

/** Time as the app sees it: the real clock plus what a test skips (the move's waits on the key cache). */
function skippingClock() {
  let skipped = 0;
  return { now: () => Date.now() + skipped, skip: (ms: number) => (skipped += ms) };
}

const countIn = async (db: D1Database, table: string, tenantId: string) =>
  (await db.prepare(`SELECT count(*) AS n FROM ${table} WHERE tenant_id = ?`).bind(tenantId).first<{ n: number }>())!.n;

async function seed(tenant: TestTenant, clock: { now: () => number }) {
  const admin = clientWith((s) => ({ ...s, clock }), tenant.adminKey, oneAttempt);
  for (let i = 0; i < SEEDED; i++) {
    await expectJson(
      admin.v1.memories.$post({
        json: { scope: "move", content: `Seeded note ${i}: the depot in Ghent opens at ${6 + (i % 5)} am`, memoryType: "fact" },
      }),
      201,
    );
  }
  const faq = await expectJson(
    admin.v1.faqs.$post({ json: { question: "Where do I download my invoices?", answer: "Under Billing." } }),
    201,
  );
  await expectJson(
    admin.v1.faqs[":id"].variants.$post({ param: { id: faq.id }, json: { variantText: "How can I get a copy of an invoice?" } }),
    201,
  );
  await expectJson(admin.v1.admin.settings.$patch({ json: { query: { expansion: false } } }), 200);
  return faq;
}

describe("moving a tenant to another database", () => {
  it("moves every row while a writer keeps writing: writes wait during the copy, none is lost, and all of it is found after", async () => {
    const tenant = await newTenant("moving tenant");
    const clock = skippingClock();
    const withClock = (key: string) => clientWith((s) => ({ ...s, clock }), key, oneAttempt);
    const faq = await seed(tenant, clock);
    const homeRowsBefore = await Promise.all(MOVED_TABLES.map((t) => countIn(env.DB, t.name, tenant.tenantId)));

    // A client writing one memory after another, as long as the move lasts; a refused write is kept to send again after.
    const writer = withClock(tenant.clientKey);
    const accepted: string[] = [];
    const refused: number[] = [];
    let writing = true;
    const writes = (async () => {
      for (let i = 0; writing; i++) {
        const res = await writer.v1.memories.$post({
          json: { scope: "move", content: `Live note ${i} written during the move`, memoryType: "fact" },
        });
        if (res.status === 201) accepted.push((await res.json()).id);
        else {
          expect(res.status).toBe(503);
          expect(res.headers.get("retry-after")).toBe(String(PRINCIPAL_CACHE_MS / 1000));
          refused.push(i);
        }
        // A refused write answers without I/O: without a pause this loop would hold the event loop from the move.
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    })();

    const operator = withClock(OPERATOR_KEY).v1.admin.tenants[":id"].move;
    const move = () => expectJson(operator.$post({ param: { id: tenant.tenantId }, json: { to: "DB_1" } }), 200);
    let state = await move();
    expect(state).toMatchObject({ phase: "freezing", from: "DB", to: "DB_1" });
    expect(state.waitMs).toBeGreaterThan(0);
    // The writer meets the freeze too before the move goes on.
    while (refused.length < 3) await new Promise((resolve) => setTimeout(resolve, 10));
    // Frozen: a write is refused at once, a read still answers.
    await expectError(
      writer.v1.memories.$post({ json: { scope: "move", content: "refused while frozen", memoryType: "fact" } }),
      503,
      "UNAVAILABLE",
    );
    await expectJson(writer.v1.memories.search.$post({ json: { scope: "move", query: "depot in Ghent" } }), 200);

    for (let calls = 0; state.phase !== "done" && state.phase !== "failed" && calls < 20; calls++) {
      if (state.waitMs > 0) clock.skip(state.waitMs + 1);
      state = await move();
    }
    writing = false;
    await writes;
    expect(state).toMatchObject({ phase: "done", reason: null, tablesDone: MOVED_TABLES.length });

    // The writes refused during the move go through now, to the new database.
    for (const i of refused) {
      const id = (
        await expectJson(
          writer.v1.memories.$post({ json: { scope: "move", content: `Live note ${i} written during the move`, memoryType: "fact" } }),
          201,
        )
      ).id;
      accepted.push(id);
    }

    // Nothing is left at home; every row is in DB_1, the seeded ones and every accepted write.
    for (const table of MOVED_TABLES) expect(await countIn(env.DB, table.name, tenant.tenantId), table.name).toBe(0);
    expect(await countIn(placedDb(), "memories", tenant.tenantId)).toBe(
      homeRowsBefore[MOVED_TABLES.findIndex((t) => t.name === "memories")]! + accepted.length,
    );
    for (const [i, table] of MOVED_TABLES.entries()) {
      if (table.name !== "memories" && table.name !== "idempotency_keys") {
        expect(await countIn(placedDb(), table.name, tenant.tenantId), table.name).toBeGreaterThanOrEqual(homeRowsBefore[i]!);
      }
    }
    const reader = withClock(tenant.clientKey);
    for (const id of accepted) expect((await reader.v1.memories[":id"].$get({ param: { id } })).status).toBe(200);

    // Full-text, vector and FAQ search answer from the copy; settings came along.
    const keyword = await expectJson(reader.v1.memories.search.$post({ json: { scope: "move", query: "Ghent depot" } }), 200);
    expect(keyword.results.length).toBeGreaterThan(0);
    const faqs = await expectJson(reader.v1.faqs.search.$post({ json: { query: "get a copy of an invoice" } }), 200);
    expect(faqs.results[0]?.id).toBe(faq.id);
    const settings = await expectJson(withClock(tenant.adminKey).v1.admin.settings.$get(), 200);
    expect(settings.settings.query.expansion).toBe(false);

    const databases = await expectJson(withClock(OPERATOR_KEY).v1.admin.databases.$get(), 200);
    expect(databases.databases.find((d) => d.name === "DB_1")!.tenants).toBeGreaterThanOrEqual(1);
  });

  it("fails the move and leaves the tenant where it was when the source changes during the copy", async () => {
    const tenant = await newTenant("changed under a move");
    const clock = skippingClock();
    await seed(tenant, clock);
    const services = { ...createServices(env), clock };
    const args = { tenantId: tenant.tenantId, from: "DB", to: "DB_1" };
    let state = await advanceMove(services, args, 0);
    clock.skip(state.waitMs + 1);
    while (state.phase === "freezing" || state.phase === "copying") state = await advanceMove(services, args, 0);
    expect(state.phase).toBe("verifying");

    // Something writes past the freeze (nothing should: this stands for a fault): verification must notice.
    await env.DB.prepare(
      "UPDATE memories SET content = 'changed behind the move' WHERE tenant_id = ? AND rowid = (SELECT max(rowid) FROM memories WHERE tenant_id = ?)",
    )
      .bind(tenant.tenantId, tenant.tenantId)
      .run();
    while (state.phase === "verifying") state = await advanceMove(services, args, 0);
    expect(state.phase).toBe("failed");
    expect(state.reason).toMatch(/memories/);

    // Writes resume, on the database the tenant never left.
    const api = clientWith((s) => ({ ...s, clock }), tenant.clientKey, oneAttempt);
    await expectJson(api.v1.memories.$post({ json: { scope: "move", content: "written after a failed move", memoryType: "fact" } }), 201);
    expect(await countIn(env.DB, "memories", tenant.tenantId)).toBe(SEEDED + 1);

    // Started again, the move clears what the failed one copied and completes.
    for (let calls = 0; state.phase !== "done" && calls < 20; calls++) {
      state = await advanceMove(services, args);
      if (state.waitMs > 0) clock.skip(state.waitMs + 1);
    }
    expect(state.phase).toBe("done");
    expect(await countIn(placedDb(), "memories", tenant.tenantId)).toBe(SEEDED + 1);
    expect(await countIn(env.DB, "memories", tenant.tenantId)).toBe(0);

    // And back home.
    const back = { ...args, from: "DB_1", to: "DB" };
    for (let calls = 0; calls < 20; calls++) {
      state = await advanceMove(services, back);
      if (state.phase === "done" && state.to === "DB") break;
      if (state.waitMs > 0) clock.skip(state.waitMs + 1);
    }
    expect(state).toMatchObject({ phase: "done", to: "DB" });
    expect(await countIn(env.DB, "memories", tenant.tenantId)).toBe(SEEDED + 1);
    expect(await countIn(placedDb(), "memories", tenant.tenantId)).toBe(0);
    await expectJson(api.v1.memories.search.$post({ json: { scope: "move", query: "depot in Ghent" } }), 200);
  });

  it("holds the cron's per-database jobs on both databases while a move copies, and runs the home ones", async () => {
    const tenant = await newTenant("moving while the cron runs");
    const clock = skippingClock();
    const services = { ...createServices(env), clock };
    const args = { tenantId: tenant.tenantId, from: "DB", to: "DB_1" };
    expect((await advanceMove(services, args, 0)).phase).toBe("freezing");
    const report = await runCron(REINDEX_CRON, services, ["DB", "DB_1"]);
    expect(report.reindexMemories).toMatchObject({ skipped: expect.stringContaining("moved") });
    expect(report["reindexMemories:DB_1"]).toMatchObject({ skipped: expect.stringContaining("moved") });
    expect(report.sealWebhookSecrets).not.toHaveProperty("skipped");
    // Once the move is done, they run again.
    for (let calls = 0; calls < 20; calls++) {
      const state = await advanceMove(services, args);
      if (state.phase === "done") break;
      clock.skip(state.waitMs + 1);
    }
    const after = await runCron(REINDEX_CRON, services, ["DB", "DB_1"]);
    expect(after.reindexMemories).not.toHaveProperty("skipped");
    expect(after["reindexMemories:DB_1"]).not.toHaveProperty("skipped");
  });

  it("refuses a move to the database the tenant is in, to one the deployment lacks, and for an unknown tenant", async () => {
    const tenant = await newTenant();
    const operator = clientWith((s) => s, OPERATOR_KEY, oneAttempt).v1.admin.tenants[":id"].move;
    await expectError(operator.$post({ param: { id: tenant.tenantId }, json: { to: "DB" } }), 409, "CONFLICT");
    await expectError(operator.$post({ param: { id: tenant.tenantId }, json: { to: "DB_9" } }), 400, "VALIDATION_FAILED");
    await expectError(operator.$post({ param: { id: "t_nobody" }, json: { to: "DB_1" } }), 404, "NOT_FOUND");
    await expectError(operator.$get({ param: { id: tenant.tenantId } }), 404, "NOT_FOUND");
  });
});
