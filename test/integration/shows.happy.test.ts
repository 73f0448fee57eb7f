import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { fixedClock } from "../../src/clock";
import type { ShowMemory } from "../../workers/show-memory";
import { call, newTenant } from "../support/api";
import { showClient, storedQuestionCount, windowIdsOf } from "../support/shows";

const MIN = 60_000;
const T10_00 = Date.UTC(2025, 9, 19, 10, 0);

// Changed for issue 14 (the repeat decision is fitted on labelled pairs, not anchored on this
// example): seed 004 calls #5 and #12 repeats of #1 (87 % / 82 %), but on the local model their
// raw cosines (0.609 / 0.560) equal those of the different questions the issue reports (0.614 /
// 0.562), so no function of the cosine can block one and not the other. The test now holds what
// the fitted decision promises: a rewording that shares the question's words is filtered with
// "how many minutes ago", and the seed's #12 and the different questions are not filtered.
describe("the seed-004 example (#1 at 10:00, a rewording at 10:08, #12 at 10:22)", () => {
  it("filters a rewording of #1 with how many minutes ago, and lets different questions on the topic through", async () => {
    const { clientKey } = await newTenant();
    const clock = fixedClock(T10_00);
    const api = showClient(clientKey, clock);
    const first = await api.post("/v1/shows/seed-example/rank", {
      candidates: [
        { text: "What evidence supports machine consciousness?", model: "gpt-4o", confidence: 0.9 },
        { text: "Which programming language should beginners learn first?", model: "claude", confidence: 0.6 },
      ],
    });
    expect(first.status).toBe(200);
    expect(first.json.picks.map((p: any) => p.text)).toContain("What evidence supports machine consciousness?");

    clock.set(T10_00 + 8 * MIN);
    const fifth = await api.post("/v1/shows/seed-example/rank", {
      candidates: [
        { text: "What is the evidence that supports consciousness in machines?", model: "claude", confidence: 0.9 },
        { text: "Will quantum computers break encryption soon?", model: "gemini", confidence: 0.6 },
      ],
    });
    const flagged5 = flagOf(fifth.json, "What is the evidence that supports consciousness in machines?");
    expect(flagged5).toMatchObject({ mostSimilarQuestion: "What evidence supports machine consciousness?", minutesAgo: 8 });
    expect(flagged5.message).toMatch(/similar to "What evidence supports machine consciousness\?" 8 min ago/);
    expect(fifth.json.picks.map((p: any) => p.text)).toContain("Will quantum computers break encryption soon?");

    clock.set(T10_00 + 22 * MIN);
    const twelfth = await api.post("/v1/shows/seed-example/rank", {
      candidates: [
        { text: "How do we know if AI has subjective experience?", model: "gemini", confidence: 0.9 },
        { text: "Is the brain just a biological computer?", model: "claude", confidence: 0.8 },
      ],
    });
    expect(twelfth.json.filtered).toEqual([]);
    expect(twelfth.json.picks).toHaveLength(2);
  });
});

/** A candidate counts as flagged when it was filtered, or picked with a warning. */
function flagOf(body: any, text: string): any {
  const filtered = body.filtered.find((f: any) => f.text === text);
  if (filtered) return filtered;
  const pick = body.picks.find((p: any) => p.text === text);
  expect(pick?.warnings?.[0], `${text} was neither filtered nor warned: ${JSON.stringify(body)}`).toBeDefined();
  return pick.warnings[0];
}

describe("POST /v1/shows/:showId/rank", () => {
  it("picks the top N, reports novelty and score, and records the picks (durable at once)", async () => {
    const { clientKey, tenantId } = await newTenant();
    const clock = fixedClock(T10_00);
    const api = showClient(clientKey, clock);
    const res = await api.post("/v1/shows/rank-basic/rank", {
      topN: 2,
      candidates: [
        { text: "How do octopuses change the colour of their skin?", model: "gpt-4o", confidence: 0.7 },
        { text: "What makes sourdough bread rise without yeast packets?", model: "claude", confidence: 0.8 },
        { text: "Why did the Roman Empire split in two?", model: "gemini", confidence: 0.6 },
      ],
    });
    expect(res.status).toBe(200);
    expect(res.json.picks).toHaveLength(2);
    expect(res.json.picks[0]).toMatchObject({ text: "What makes sourdough bread rise without yeast packets?", model: "claude", novelty: 1 });
    expect(res.json.picks[0].id).toMatch(/^q_/);
    expect(res.json.notPicked.map((x: any) => x.text)).toEqual(["Why did the Roman Empire split in two?"]);
    expect(res.json.recorded).toBe(2);
    const stub = env.SHOW_MEMORY.get(env.SHOW_MEMORY.idFromName(`${tenantId}:rank-basic`));
    expect(await storedQuestionCount(stub)).toBe(2);

    const again = await api.post("/v1/shows/rank-basic/rank", {
      record: false,
      candidates: [
        { text: "Why did the Roman Empire split in two?", model: "gemini", confidence: 0.6 },
        { text: "How do octopuses change the colour of their skin?", model: "gpt-4o", confidence: 0.7 },
      ],
    });
    // Rome was not picked, so not recorded; the octopus was, so it is now a repeat (0 min ago)
    expect(again.json.picks.map((p: any) => p.text)).toEqual(["Why did the Roman Empire split in two?"]);
    expect(again.json.filtered[0]).toMatchObject({ text: "How do octopuses change the colour of their skin?", minutesAgo: 0 });
    expect(await storedQuestionCount(stub)).toBe(2);
  });

  it("embeds every candidate in one batch and drops exact repeats in the batch", async () => {
    const { clientKey } = await newTenant();
    const api = showClient(clientKey, fixedClock(T10_00));
    const res = await api.post("/v1/shows/dupes/rank", {
      candidates: [
        { text: "Is remote work here to stay?", model: "gpt-4o", confidence: 0.5 },
        { text: "is remote work  here to stay?", model: "claude", confidence: 0.9 },
      ],
    });
    expect(res.json.picks.map((p: any) => [p.text, p.votes])).toEqual([["is remote work  here to stay?", ["gpt-4o"]]]);
    expect(res.json.filtered[0]).toMatchObject({ text: "Is remote work here to stay?", reason: "duplicate_in_batch" });
    expect(api.embedCalls()).toBe(1);
  });

  it("does not treat Chinese candidates as identical (lexical fallback on the English-only model)", async () => {
    const { clientKey } = await newTenant();
    const api = showClient(clientKey, fixedClock(T10_00));
    const res = await api.post("/v1/shows/zh/rank", {
      candidates: [
        { text: "人工智能有没有意识？", model: "gpt-4o", confidence: 0.8 },
        { text: "今天的天气怎么样？", model: "claude", confidence: 0.7 },
        { text: "你最喜欢哪一本书？", model: "gemini", confidence: 0.6 },
      ],
    });
    expect(res.json.picks).toHaveLength(3);
    expect(res.json.filtered).toEqual([]);
    const again = await api.post("/v1/shows/zh/rank", {
      candidates: [
        { text: "人工智能有没有意识呢？", model: "claude", confidence: 0.8 },
        { text: "人工智能到底有没有意识？", model: "gemini", confidence: 0.8 },
      ],
    });
    // a near-verbatim repeat is blocked; a reworded one (lexical 0.78) is only penalized
    expect(again.json.filtered).toEqual([
      expect.objectContaining({ text: "人工智能有没有意识呢？", reason: "similar_to_recent", method: "lexical", rawCosine: null, mostSimilarQuestion: "人工智能有没有意识？" }),
    ]);
    expect(again.json.picks[0].warnings[0]).toMatchObject({ kind: "penalized", method: "lexical", similarity: 0.7826 });
  });
});

describe("the rest of the show API", () => {
  it("adds asked questions, checks a text, marks used, lists history and status, refreshes a topic, ends", async () => {
    const { clientKey } = await newTenant();
    const clock = fixedClock(T10_00);
    const api = showClient(clientKey, clock);
    const added = await api.post("/v1/shows/full/questions", {
      questions: [
        { text: "What evidence supports machine consciousness?", model: "gpt-4o", confidence: 0.9 },
        { text: "Should cities ban cars from their centres?", topics: ["urbanism"] },
      ],
    });
    expect(added.status).toBe(201);
    const [consciousId, carsId] = added.json.ids;

    clock.advance(5 * MIN);
    const same = await api.post("/v1/shows/full/check", { text: "What evidence supports machine consciousness?" });
    expect(same.json).toMatchObject({ isSimilar: true, mostSimilarQuestion: "What evidence supports machine consciousness?", minutesAgo: 5 });
    expect(same.json.similarity).toBeGreaterThan(0.99);
    const other = await api.post("/v1/shows/full/check", { text: "How do bees find their way back to the hive?" });
    expect(other.json.isSimilar).toBe(false);

    expect((await api.post(`/v1/shows/full/questions/${carsId}/used`, {})).status).toBe(200);
    expect((await api.post("/v1/shows/full/questions/q_nope/used", {})).status).toBe(404);

    clock.advance(40 * MIN);
    const history = await api.get("/v1/shows/full/history?minutes=60");
    expect(history.json.questions.map((q: any) => [q.id, q.minutesAgo, q.wasUsed])).toEqual([
      [carsId, 45, true],
      [consciousId, 45, false],
    ]);
    expect((await api.get("/v1/shows/full/history?minutes=30")).json.questions).toEqual([]);
    // a used question blocks at any age: 45 min later the same question is still blocked
    const usedCheck = await api.post("/v1/shows/full/check", { text: "Should cities ban cars from their centres?" });
    expect(usedCheck.json).toMatchObject({ isSimilar: true, minutesAgo: 45 });

    const status = await api.get("/v1/shows/full/status");
    expect(status.json).toMatchObject({ showId: "full", questionsInMemory: 2, questionCount: 2, usedCount: 1, showDurationMinutes: 45, enabled: true });

    const refreshed = await api.post("/v1/shows/full/refresh", { topic: "urbanism" });
    expect(refreshed.json.forgotten).toEqual([carsId]);
    expect((await api.post("/v1/shows/full/check", { text: "Should cities ban cars from their centres?" })).json.isSimilar).toBe(false);
    expect((await api.get("/v1/shows/full/status")).json.questionsInMemory).toBe(1);
    const byId = await api.post("/v1/shows/full/refresh", { questionIds: [consciousId] });
    expect(byId.json.forgotten).toEqual([consciousId]);

    const config = await api.put("/v1/shows/full/config", { similarityThreshold: 0.9, decayTimeConstantMinutes: 20 });
    expect(config.json.config).toMatchObject({ similarityThreshold: 0.9, decayTimeConstantMinutes: 20, maxCacheSize: 100 });

    const ended = await api.post("/v1/shows/full/end", {});
    expect(ended.json).toMatchObject({ showId: "full", questionCount: 2, endedAt: clock.now() });
    const afterEnd = await api.post("/v1/shows/full/questions", { questions: [{ text: "One more?" }] });
    expect(afterEnd.status).toBe(409);

    const listed = await call("/v1/shows", { key: clientKey });
    expect(listed.json!.shows).toEqual([
      expect.objectContaining({ showId: "full", questionCount: 2, usedCount: 1, endedAt: clock.now() }),
    ]);
  });

  it("keeps only the newest maxCacheSize questions in the window and rebuilds it when the object wakes", async () => {
    const { clientKey, tenantId } = await newTenant();
    const clock = fixedClock(T10_00);
    const api = showClient(clientKey, clock);
    expect((await api.put("/v1/shows/window/config", { maxCacheSize: 3 })).status).toBe(200);
    const ids: string[] = [];
    for (const text of ["Tea or coffee?", "Cats or dogs?", "Mountains or beaches?", "Books or films?", "Summer or winter?"]) {
      clock.advance(MIN);
      ids.push(...(await api.post("/v1/shows/window/questions", { questions: [{ text }] })).json.ids);
    }
    const stub = env.SHOW_MEMORY.get(env.SHOW_MEMORY.idFromName(`${tenantId}:window`));
    expect(await windowIdsOf(stub)).toEqual(ids.slice(2));
    // a fresh store over the same storage (what the constructor does on wake) rebuilds the same window
    const { ShowMemoryStore } = await import("../../src/shows/store");
    const rebuilt = await runInDurableObject(stub, (_o: ShowMemory, state) =>
      new ShowMemoryStore(state.storage.sql, (fn) => state.storage.transactionSync(fn)).windowIds(),
    );
    expect(rebuilt).toEqual(ids.slice(2));
    expect((await api.get("/v1/shows/window/status")).json).toMatchObject({ questionsInMemory: 3, questionCount: 5 });
  });
});
