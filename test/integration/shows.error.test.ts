import {
  createExecutionContext,
  createScheduledController,
  env,
  runDurableObjectAlarm,
  waitOnExecutionContext,
} from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { fixedClock, systemClock } from "../../src/clock";
import { createServices } from "../../src/services";
import { RETENTION_CRON } from "../../src/upkeep/cron";
import worker from "../../workers/api";
import { call, newTenant } from "../support/api";
import { showClient, storedQuestionCount } from "../support/shows";

const MIN = 60_000;
const DAY = 24 * 60 * MIN;
const T0 = Date.UTC(2025, 9, 19, 10, 0);
const candidate = (text: string, model = "gpt-4o", confidence = 0.7) => ({ text, model, confidence });

describe("show routes reject bad input", () => {
  it("answers 400 for an empty or oversized candidate list, a bad show id, unknown fields and bad config", async () => {
    const { clientKey } = await newTenant();
    const post = (path: string, body: unknown) => call(path, { key: clientKey, body });
    expect((await post("/v1/shows/s1/rank", { candidates: [] })).json!.error.code).toBe("VALIDATION_FAILED");
    const many = Array.from({ length: 51 }, (_, i) => candidate(`Question number ${i}?`));
    expect((await post("/v1/shows/s1/rank", { candidates: many })).status).toBe(400);
    expect((await post("/v1/shows/bad%20id!/rank", { candidates: [candidate("Hi?")] })).status).toBe(400);
    expect((await post(`/v1/shows/${"x".repeat(65)}/rank`, { candidates: [candidate("Hi?")] })).status).toBe(400);
    expect((await post("/v1/shows/s1/rank", { candidates: [{ ...candidate("Hi?"), extra: 1 }] })).status).toBe(400);
    expect((await post("/v1/shows/s1/rank", { candidates: [candidate("Hi?", "m", 1.5)] })).status).toBe(400);
    expect((await post("/v1/shows/s1/refresh", { topic: "x", questionIds: ["q_1"] })).status).toBe(400);
    const put = (body: unknown) => call("/v1/shows/s1/config", { key: clientKey, body, method: "PUT" });
    expect((await put({ similarityThreshold: 1.2 })).status).toBe(400);
    expect((await put({ maxCacheSize: 0 })).status).toBe(400);
    expect((await put({})).status).toBe(400);
    const order = await put({ penaltySimilarityThreshold: 0.9 });
    expect(order.status).toBe(400);
    expect(order.json!.error.message).toMatch(/penaltySimilarityThreshold must be ≤ similarityThreshold/);
    expect((await call("/v1/shows/s1/history?minutes=0", { key: clientKey })).status).toBe(400);
  });

  it("keeps tenants apart: the same show id is a different show for another tenant", async () => {
    const a = await newTenant();
    const b = await newTenant();
    await call("/v1/shows/shared-name/questions", { key: a.clientKey, body: { questions: [{ text: "Where do comets come from?" }] } });
    const other = await call("/v1/shows/shared-name/status", { key: b.clientKey });
    expect(other.json).toMatchObject({ questionCount: 0, questionsInMemory: 0 });
    expect((await call("/v1/shows", { key: b.clientKey })).json!.shows).toEqual([]);
    expect((await call("/v1/shows/shared-name/status")).status).toBe(401);
  });
});

describe("show faults", () => {
  it("answers 503 with the envelope when the embedder is down, and writes nothing", async () => {
    const { clientKey, tenantId } = await newTenant();
    const down = showClient(clientKey, fixedClock(T0), (real) => createServices({ ...env, EMBEDDER_URL: "http://127.0.0.1:9" }, real.clock));
    const res = await down.post("/v1/shows/down/rank", { candidates: [candidate("A question nobody has embedded before, about glaciers?")] });
    expect(res.status).toBe(503);
    expect(res.json.error).toMatchObject({ code: "UNAVAILABLE", requestId: expect.any(String) });
    expect((await down.post("/v1/shows/down/questions", { questions: [{ text: "Another unseen question about moss?" }] })).status).toBe(503);
    const stub = env.SHOW_MEMORY.get(env.SHOW_MEMORY.idFromName(`${tenantId}:down`));
    expect(await storedQuestionCount(stub)).toBe(0);
    expect((await call("/v1/shows", { key: clientKey })).json!.shows).toEqual([]);
  });

  it("serializes concurrent rank calls on one show: nothing lost, nothing counted twice", async () => {
    const { clientKey, tenantId } = await newTenant();
    const api = showClient(clientKey, fixedClock(T0));
    const batch = {
      candidates: [
        candidate("How do vaccines train the immune system?"),
        candidate("Why is the sky blue during the day?", "claude"),
        candidate("What would a four-day work week change?", "gemini"),
      ],
    };
    const results = await Promise.all(Array.from({ length: 4 }, () => api.post("/v1/shows/race/rank", batch)));
    const picked = results.flatMap((r) => r.json.picks.map((p: any) => p.text));
    // the first call to run picks all three; every later call finds them in the history (0 min ago)
    expect(picked.sort()).toEqual(batch.candidates.map((c) => c.text).sort());
    for (const r of results) expect(r.json.picks.length + r.json.filtered.length).toBe(3);
    const stub = env.SHOW_MEMORY.get(env.SHOW_MEMORY.idFromName(`${tenantId}:race`));
    expect(await storedQuestionCount(stub)).toBe(3);
  });
});

describe("show retention", () => {
  it("the alarm deletes questions older than retentionDays and keeps the rest", async () => {
    const { clientKey, tenantId } = await newTenant();
    const api = showClient(clientKey, fixedClock(Date.now() - 31 * DAY));
    await api.post("/v1/shows/retained/questions", { questions: [{ text: "An old question about tides?" }] });
    const recent = showClient(clientKey, systemClock);
    await recent.post("/v1/shows/retained/questions", { questions: [{ text: "A new question about volcanoes?" }] });
    const stub = env.SHOW_MEMORY.get(env.SHOW_MEMORY.idFromName(`${tenantId}:retained`));
    expect(await storedQuestionCount(stub)).toBe(2);
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    const history = await recent.get("/v1/shows/retained/history?minutes=60000");
    expect(history.json.questions.map((q: any) => q.text)).toEqual(["A new question about volcanoes?"]);
  });

  it("the daily cron prunes show archive rows idle for 30 days", async () => {
    const { clientKey } = await newTenant();
    await showClient(clientKey, fixedClock(Date.now() - 31 * DAY)).post("/v1/shows/stale/questions", { questions: [{ text: "Stale?" }] });
    await showClient(clientKey, systemClock).post("/v1/shows/fresh/questions", { questions: [{ text: "Fresh?" }] });
    expect((await call("/v1/shows", { key: clientKey })).json!.shows.map((s: any) => s.showId)).toEqual(["fresh", "stale"]);
    const ctx = createExecutionContext();
    await worker.scheduled(createScheduledController({ cron: RETENTION_CRON, scheduledTime: Date.now() }), env, ctx);
    await waitOnExecutionContext(ctx);
    expect((await call("/v1/shows", { key: clientKey })).json!.shows.map((s: any) => s.showId)).toEqual(["fresh"]);
  });
});
