import { createExecutionContext, createScheduledController, env, runDurableObjectAlarm, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { fixedClock, systemClock } from "../../src/core/base/clock";
import { createServices } from "../../src/app/services";
import { RETENTION_CRON } from "../../src/app/cron";
import worker from "../../workers/api";
import { newTenant, send } from "../support/api";
import { apiClient, expectError, expectJson } from "../support/client";
import { showClient, storedQuestionCount } from "../support/shows";

const MIN = 60_000;
const DAY = 24 * 60 * MIN;
const T0 = Date.UTC(2025, 9, 19, 10, 0);
const candidate = (text: string, model = "gpt-4o", confidence = 0.7) => ({ text, model, confidence });

describe("show routes reject bad input", () => {
  // Bodies and show ids off the schema: sent raw (send). In-range types go through the typed client.
  it("answers 400 for an empty or oversized candidate list, a bad show id, unknown fields and bad config", async () => {
    const { clientKey } = await newTenant();
    const post = (path: string, body: unknown) => send(path, { key: clientKey, body });
    const s1 = apiClient(clientKey).v1.shows[":showId"];
    const param = { showId: "s1" };
    await expectError(s1.rank.$post({ param, json: { candidates: [] } }), 400, "VALIDATION_FAILED");
    const many = Array.from({ length: 51 }, (_, i) => candidate(`Question number ${i}?`));
    await expectError(s1.rank.$post({ param, json: { candidates: many } }), 400);
    expect((await post("/v1/shows/bad%20id!/rank", { candidates: [candidate("Hi?")] })).status).toBe(400);
    await expectError(s1.rank.$post({ param: { showId: "x".repeat(65) }, json: { candidates: [candidate("Hi?")] } }), 400);
    expect((await post("/v1/shows/s1/rank", { candidates: [{ ...candidate("Hi?"), extra: 1 }] })).status).toBe(400);
    await expectError(s1.rank.$post({ param, json: { candidates: [candidate("Hi?", "m", 1.5)] } }), 400);
    expect((await post("/v1/shows/s1/refresh", { topic: "x", questionIds: ["q_1"] })).status).toBe(400);
    const put = (json: Parameters<typeof s1.config.$put>[0]["json"]) => s1.config.$put({ param, json });
    await expectError(put({ similarityThreshold: 1.2 }), 400);
    await expectError(put({ maxCacheSize: 0 }), 400);
    await expectError(put({}), 400);
    const order = await expectError(put({ penaltySimilarityThreshold: 0.9 }), 400);
    expect(order.error.message).toMatch(/penaltySimilarityThreshold must be ≤ similarityThreshold/);
    await expectError(s1.history.$get({ param, query: { minutes: "0" } }), 400);
  });

  it("keeps tenants apart: the same show id is a different show for another tenant", async () => {
    const a = apiClient((await newTenant()).clientKey);
    const b = apiClient((await newTenant()).clientKey);
    const param = { showId: "shared-name" };
    await expectJson(a.v1.shows[":showId"].questions.$post({ param, json: { questions: [{ text: "Where do comets come from?" }] } }), 201);
    const other = await expectJson(b.v1.shows[":showId"].status.$get({ param }), 200);
    expect(other).toMatchObject({ questionCount: 0, questionsInMemory: 0 });
    expect((await expectJson(b.v1.shows.$get({ query: {} }), 200)).shows).toEqual([]);
    await expectError(apiClient(null).v1.shows[":showId"].status.$get({ param }), 401);
  });
});

const listShows = async (key: string) => (await expectJson(apiClient(key).v1.shows.$get({ query: {} }), 200)).shows;

describe("show faults", () => {
  it("answers 503 with the envelope when the embedder is down, and writes nothing", async () => {
    const { clientKey, tenantId } = await newTenant();
    const down = showClient(clientKey, fixedClock(T0), (real) =>
      createServices({ ...env, EMBEDDER_URL: "http://127.0.0.1:9" }, real.clock),
    ).show("down");
    await expectError(down.rank({ candidates: [candidate("A question nobody has embedded before, about glaciers?")] }), 503, "UNAVAILABLE");
    await expectError(down.addQuestions({ questions: [{ text: "Another unseen question about moss?" }] }), 503);
    const stub = env.SHOW_MEMORY.get(env.SHOW_MEMORY.idFromName(`${tenantId}:down`));
    expect(await storedQuestionCount(stub)).toBe(0);
    expect(await listShows(clientKey)).toEqual([]);
  });

  it("serializes concurrent rank calls on one show: nothing lost, nothing counted twice", async () => {
    const { clientKey, tenantId } = await newTenant();
    const race = showClient(clientKey, fixedClock(T0)).show("race");
    const batch = {
      candidates: [
        candidate("How do vaccines train the immune system?"),
        candidate("Why is the sky blue during the day?", "claude"),
        candidate("What would a four-day work week change?", "gemini"),
      ],
    };
    const results = await Promise.all(Array.from({ length: 4 }, () => expectJson(race.rank(batch), 200)));
    const picked = results.flatMap((r) => r.picks.map((p) => p.text));
    // the first call to run picks all three; every later call finds them in the history (0 min ago)
    expect(picked.sort()).toEqual(batch.candidates.map((c) => c.text).sort());
    for (const r of results) expect(r.picks.length + r.filtered.length).toBe(3);
    const stub = env.SHOW_MEMORY.get(env.SHOW_MEMORY.idFromName(`${tenantId}:race`));
    expect(await storedQuestionCount(stub)).toBe(3);
  });
});

describe("show retention", () => {
  it("the alarm deletes questions older than retentionDays and keeps the rest", async () => {
    const { clientKey, tenantId } = await newTenant();
    const old = showClient(clientKey, fixedClock(Date.now() - 31 * DAY)).show("retained");
    await expectJson(old.addQuestions({ questions: [{ text: "An old question about tides?" }] }), 201);
    const recent = showClient(clientKey, systemClock).show("retained");
    await expectJson(recent.addQuestions({ questions: [{ text: "A new question about volcanoes?" }] }), 201);
    const stub = env.SHOW_MEMORY.get(env.SHOW_MEMORY.idFromName(`${tenantId}:retained`));
    expect(await storedQuestionCount(stub)).toBe(2);
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    const history = await expectJson(recent.history(60000), 200);
    expect(history.questions.map((q) => q.text)).toEqual(["A new question about volcanoes?"]);
  });

  it("the daily cron prunes show archive rows idle for 30 days", async () => {
    const { clientKey } = await newTenant();
    await expectJson(
      showClient(clientKey, fixedClock(Date.now() - 31 * DAY))
        .show("stale")
        .addQuestions({ questions: [{ text: "Stale?" }] }),
      201,
    );
    await expectJson(
      showClient(clientKey, systemClock)
        .show("fresh")
        .addQuestions({ questions: [{ text: "Fresh?" }] }),
      201,
    );
    expect((await listShows(clientKey)).map((s) => s.showId)).toEqual(["fresh", "stale"]);
    const ctx = createExecutionContext();
    await worker.scheduled(createScheduledController({ cron: RETENTION_CRON, scheduledTime: Date.now() }), env, ctx);
    await waitOnExecutionContext(ctx);
    expect((await listShows(clientKey)).map((s) => s.showId)).toEqual(["fresh"]);
  });
});
