import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { fixedClock } from "../../src/core/base/clock";
import type { ShowMemory } from "../../workers/show-memory";
import { newTenant } from "../support/api";
import { apiClient, expectError, expectJson, type JsonOf } from "../support/client";
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
    const show = showClient(clientKey, clock).show("seed-example");
    const first = await expectJson(
      show.rank({
        candidates: [
          { text: "What evidence supports machine consciousness?", model: "gpt-4o", confidence: 0.9 },
          { text: "Which programming language should beginners learn first?", model: "claude", confidence: 0.6 },
        ],
      }),
      200,
    );
    expect(first.picks.map((p) => p.text)).toContain("What evidence supports machine consciousness?");

    clock.set(T10_00 + 8 * MIN);
    const fifth = await expectJson(
      show.rank({
        candidates: [
          { text: "What is the evidence that supports consciousness in machines?", model: "claude", confidence: 0.9 },
          { text: "Will quantum computers break encryption soon?", model: "gemini", confidence: 0.6 },
        ],
      }),
      200,
    );
    const flagged5 = flagOf(fifth, "What is the evidence that supports consciousness in machines?");
    expect(flagged5).toMatchObject({ mostSimilarQuestion: "What evidence supports machine consciousness?", minutesAgo: 8 });
    expect(flagged5.message).toMatch(/similar to "What evidence supports machine consciousness\?" 8 min ago/);
    expect(fifth.picks.map((p) => p.text)).toContain("Will quantum computers break encryption soon?");

    clock.set(T10_00 + 22 * MIN);
    const twelfth = await expectJson(
      show.rank({
        candidates: [
          { text: "How do we know if AI has subjective experience?", model: "gemini", confidence: 0.9 },
          { text: "Is the brain just a biological computer?", model: "claude", confidence: 0.8 },
        ],
      }),
      200,
    );
    expect(twelfth.filtered).toEqual([]);
    expect(twelfth.picks).toHaveLength(2);
  });
});

/** A candidate counts as flagged when it was filtered, or picked with a warning. */
function flagOf(body: RankAnswer, text: string): { message: string } {
  const filtered = body.filtered.find((f) => f.text === text);
  if (filtered) return filtered;
  const pick = body.picks.find((p) => p.text === text);
  expect(pick?.warnings?.[0], `${text} was neither filtered nor warned: ${JSON.stringify(body)}`).toBeDefined();
  return pick!.warnings![0]!;
}
type RankAnswer = JsonOf<Awaited<ReturnType<ReturnType<ReturnType<typeof showClient>["show"]>["rank"]>>, 200>;

describe("POST /v1/shows/:showId/rank", () => {
  it("picks the top N, reports novelty and score, and records the picks (durable at once)", async () => {
    const { clientKey, tenantId } = await newTenant();
    const clock = fixedClock(T10_00);
    const show = showClient(clientKey, clock).show("rank-basic");
    const res = await expectJson(
      show.rank({
        topN: 2,
        candidates: [
          { text: "How do octopuses change the colour of their skin?", model: "gpt-4o", confidence: 0.7 },
          { text: "What makes sourdough bread rise without yeast packets?", model: "claude", confidence: 0.8 },
          { text: "Why did the Roman Empire split in two?", model: "gemini", confidence: 0.6 },
        ],
      }),
      200,
    );
    expect(res.picks).toHaveLength(2);
    expect(res.picks[0]).toMatchObject({ text: "What makes sourdough bread rise without yeast packets?", model: "claude", novelty: 1 });
    expect(res.picks[0]!.id).toMatch(/^q_/);
    expect(res.notPicked.map((x) => x.text)).toEqual(["Why did the Roman Empire split in two?"]);
    expect(res.recorded).toBe(2);
    const stub = env.SHOW_MEMORY.get(env.SHOW_MEMORY.idFromName(`${tenantId}:rank-basic`));
    expect(await storedQuestionCount(stub)).toBe(2);

    const again = await expectJson(
      show.rank({
        record: false,
        candidates: [
          { text: "Why did the Roman Empire split in two?", model: "gemini", confidence: 0.6 },
          { text: "How do octopuses change the colour of their skin?", model: "gpt-4o", confidence: 0.7 },
        ],
      }),
      200,
    );
    // Rome was not picked, so not recorded; the octopus was, so it is now a repeat (0 min ago)
    expect(again.picks.map((p) => p.text)).toEqual(["Why did the Roman Empire split in two?"]);
    expect(again.filtered[0]).toMatchObject({ text: "How do octopuses change the colour of their skin?", minutesAgo: 0 });
    expect(await storedQuestionCount(stub)).toBe(2);
  });

  it("embeds every candidate in one batch and drops exact repeats in the batch", async () => {
    const { clientKey } = await newTenant();
    const client = showClient(clientKey, fixedClock(T10_00));
    const res = await expectJson(
      client.show("dupes").rank({
        candidates: [
          { text: "Is remote work here to stay?", model: "gpt-4o", confidence: 0.5 },
          { text: "is remote work  here to stay?", model: "claude", confidence: 0.9 },
        ],
      }),
      200,
    );
    expect(res.picks.map((p) => [p.text, p.votes])).toEqual([["is remote work  here to stay?", ["gpt-4o"]]]);
    expect(res.filtered[0]).toMatchObject({ text: "Is remote work here to stay?", reason: "duplicate_in_batch" });
    expect(client.embedCalls()).toBe(1);
  });

  it("keeps a candidate 85 %+ similar to a likelier one of its batch out of the picks (seed 004's batch rule)", async () => {
    const { clientKey } = await newTenant();
    const res = await expectJson(
      showClient(clientKey, fixedClock(T10_00))
        .show("tour")
        .rank({
          topN: 3,
          candidates: [
            { text: "What is your favorite city to tour in?", model: "gpt-4o", confidence: 0.9 },
            { text: "Which city do you love touring the most?", model: "claude", confidence: 0.85 },
            { text: "Do you ever get stage fright?", model: "gemini", confidence: 0.6 },
            { text: "What was the first concert you ever went to?", model: "gpt-4o", confidence: 0.55 },
          ],
        }),
      200,
    );
    expect(res.picks.map((p) => p.text)).toEqual([
      "What is your favorite city to tour in?",
      "Do you ever get stage fright?",
      "What was the first concert you ever went to?",
    ]);
    expect(res.filtered[0]).toMatchObject({ text: "Which city do you love touring the most?", reason: "duplicate_in_batch" });
  });

  it("does not treat Chinese candidates as identical (lexical fallback on the English-only model)", async () => {
    const { clientKey } = await newTenant();
    const show = showClient(clientKey, fixedClock(T10_00)).show("zh");
    const res = await expectJson(
      show.rank({
        candidates: [
          { text: "人工智能有没有意识？", model: "gpt-4o", confidence: 0.8 },
          { text: "今天的天气怎么样？", model: "claude", confidence: 0.7 },
          { text: "你最喜欢哪一本书？", model: "gemini", confidence: 0.6 },
        ],
      }),
      200,
    );
    expect(res.picks).toHaveLength(3);
    expect(res.filtered).toEqual([]);
    const again = await expectJson(
      show.rank({
        candidates: [
          { text: "人工智能有没有意识呢？", model: "claude", confidence: 0.8 },
          { text: "人工智能到底有没有意识？", model: "gemini", confidence: 0.8 },
        ],
      }),
      200,
    );
    // a near-verbatim repeat is blocked; a reworded one (lexical 0.78) is only penalized
    expect(again.filtered).toEqual([
      expect.objectContaining({
        text: "人工智能有没有意识呢？",
        reason: "similar_to_recent",
        method: "lexical",
        rawCosine: null,
        mostSimilarQuestion: "人工智能有没有意识？",
      }),
    ]);
    expect(again.picks[0]!.warnings![0]).toMatchObject({ kind: "penalized", method: "lexical", similarity: 0.7826 });
  });
});

describe("the rest of the show API", () => {
  it("adds asked questions, checks a text, marks used, lists history and status, refreshes a topic, ends", async () => {
    const { clientKey } = await newTenant();
    const clock = fixedClock(T10_00);
    const show = showClient(clientKey, clock).show("full");
    const added = await expectJson(
      show.addQuestions({
        questions: [
          { text: "What evidence supports machine consciousness?", model: "gpt-4o", confidence: 0.9 },
          { text: "Should cities ban cars from their centres?", topics: ["urbanism"] },
        ],
      }),
      201,
    );
    const [consciousId, carsId] = added.ids as [string, string];

    clock.advance(5 * MIN);
    const same = await expectJson(show.check({ text: "What evidence supports machine consciousness?" }), 200);
    expect(same).toMatchObject({ isSimilar: true, mostSimilarQuestion: "What evidence supports machine consciousness?", minutesAgo: 5 });
    expect(same.similarity).toBeGreaterThan(0.99);
    const other = await expectJson(show.check({ text: "How do bees find their way back to the hive?" }), 200);
    expect(other.isSimilar).toBe(false);

    await expectJson(show.used(carsId), 200);
    await expectError(show.used("q_nope"), 404);

    clock.advance(40 * MIN);
    const history = await expectJson(show.history(60), 200);
    expect(history.questions.map((q) => [q.id, q.minutesAgo, q.wasUsed])).toEqual([
      [carsId, 45, true],
      [consciousId, 45, false],
    ]);
    expect((await expectJson(show.history(30), 200)).questions).toEqual([]);
    // a used question blocks at any age: 45 min later the same question is still blocked
    const usedCheck = await expectJson(show.check({ text: "Should cities ban cars from their centres?" }), 200);
    expect(usedCheck).toMatchObject({ isSimilar: true, minutesAgo: 45 });

    const status = await expectJson(show.status(), 200);
    expect(status).toMatchObject({
      showId: "full",
      questionsInMemory: 2,
      questionCount: 2,
      usedCount: 1,
      showDurationMinutes: 45,
      enabled: true,
    });

    const refreshed = await expectJson(show.refresh({ topic: "urbanism" }), 200);
    expect(refreshed.forgotten).toEqual([carsId]);
    expect((await expectJson(show.check({ text: "Should cities ban cars from their centres?" }), 200)).isSimilar).toBe(false);
    expect((await expectJson(show.status(), 200)).questionsInMemory).toBe(1);
    const byId = await expectJson(show.refresh({ questionIds: [consciousId] }), 200);
    expect(byId.forgotten).toEqual([consciousId]);

    const config = await expectJson(show.config({ similarityThreshold: 0.9, decayTimeConstantMinutes: 20 }), 200);
    expect(config.config).toMatchObject({ similarityThreshold: 0.9, decayTimeConstantMinutes: 20, maxCacheSize: 100 });

    const ended = await expectJson(show.end(), 200);
    expect(ended).toMatchObject({ showId: "full", questionCount: 2, endedAt: clock.now() });
    await expectError(show.addQuestions({ questions: [{ text: "One more?" }] }), 409);

    const listed = await expectJson(apiClient(clientKey).v1.shows.$get({ query: {} }), 200);
    expect(listed.shows).toEqual([expect.objectContaining({ showId: "full", questionCount: 2, usedCount: 1, endedAt: clock.now() })]);
  });

  it("keeps only the newest maxCacheSize questions in the window and rebuilds it when the object wakes", async () => {
    const { clientKey, tenantId } = await newTenant();
    const clock = fixedClock(T10_00);
    const show = showClient(clientKey, clock).show("window");
    await expectJson(show.config({ maxCacheSize: 3 }), 200);
    const ids: string[] = [];
    for (const text of ["Tea or coffee?", "Cats or dogs?", "Mountains or beaches?", "Books or films?", "Summer or winter?"]) {
      clock.advance(MIN);
      ids.push(...(await expectJson(show.addQuestions({ questions: [{ text }] }), 201)).ids);
    }
    const stub = env.SHOW_MEMORY.get(env.SHOW_MEMORY.idFromName(`${tenantId}:window`));
    expect(await windowIdsOf(stub)).toEqual(ids.slice(2));
    // a fresh store over the same storage (what the constructor does on wake) rebuilds the same window
    const { ShowMemoryStore } = await import("../../src/features/shows/store");
    const rebuilt = await runInDurableObject(stub, (_o: ShowMemory, state) =>
      new ShowMemoryStore(state.storage.sql, (fn) => state.storage.transactionSync(fn)).windowIds(),
    );
    expect(rebuilt).toEqual(ids.slice(2));
    expect(await expectJson(show.status(), 200)).toMatchObject({ questionsInMemory: 3, questionCount: 5 });
  });
});
