import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createApiKey } from "../../src/features/auth/keys";
import { fixedClock } from "../../src/core/base/clock";
import { listRankings, MAX_STORED_RANKINGS, pruneRankings, saveRanking } from "../../src/features/shows/rankings";
import type { ShowMemory } from "../../workers/show-memory";
import { newTenant } from "../support/api";
import { apiClient, expectError, expectJson } from "../support/client";
import { showClient } from "../support/shows";

const MIN = 60_000;
const T10_00 = Date.UTC(2025, 9, 19, 10, 0);
const ASKED = "What evidence supports machine consciousness?";
/** A rewording the show's repeat decision filters against ASKED (shows.happy.test.ts, the seed-004 example). */
const REWORDED = "What is the evidence that supports consciousness in machines?";

/** A tenant whose key has a name (what "by" shows) and a show that asked ASKED at 10:00. */
async function showWithHistory(name: string) {
  const tenant = await newTenant();
  const key = await createApiKey(env.DB, { tenantId: tenant.tenantId, role: "client", name: "producer-ai", now: T10_00 });
  const clock = fixedClock(T10_00);
  const show = showClient(key.key, clock).show(name);
  const added = await expectJson(show.addQuestions({ questions: [{ text: ASKED, model: "gpt-4o" }] }), 201);
  clock.set(T10_00 + 8 * MIN);
  const ranked = await expectJson(
    show.rank({
      candidates: [
        { text: REWORDED, model: "claude", confidence: 0.9 },
        { text: "Will quantum computers break encryption soon?", model: "gemini", confidence: 0.6 },
      ],
    }),
    200,
  );
  return { tenant, clock, show, askedId: added.ids[0]!, ranked };
}

describe("POST /v1/shows/:showId/rank keeps the ranking", () => {
  it("answers its id, and the clock time of the question a candidate was filtered against", async () => {
    const { ranked, askedId } = await showWithHistory("keep");
    expect(ranked.rankingId).toMatch(/^rk_/);
    expect(ranked.filtered).toEqual([
      expect.objectContaining({ text: REWORDED, mostSimilarQuestionId: askedId, minutesAgo: 8, askedAt: T10_00 }),
    ]);
  });

  it("keeps nothing with record: false", async () => {
    const { show } = await showWithHistory("dry");
    const dry = await expectJson(show.rank({ candidates: [{ text: "Is time travel possible?", model: "m" }], record: false }), 200);
    expect(dry.rankingId).toBeNull();
    expect((await expectJson(show.rankings(), 200)).rankings).toHaveLength(1);
  });
});

describe("GET /v1/shows/:showId/rankings", () => {
  it("lists the newest rankings first with when, by which key and what was picked", async () => {
    const { show, clock, ranked } = await showWithHistory("list");
    clock.set(T10_00 + 12 * MIN);
    const second = await expectJson(
      show.rank({ candidates: [{ text: "Should robots pay taxes?", model: "gpt-4o", confidence: 0.7 }] }),
      200,
    );
    const { rankings } = await expectJson(show.rankings(), 200);
    expect(rankings.map((r) => r.id)).toEqual([second.rankingId, ranked.rankingId]);
    expect(rankings[1]).toMatchObject({
      rankedAt: T10_00 + 8 * MIN,
      by: "producer-ai",
      candidateCount: 2,
      filteredCount: 1,
      picks: [{ text: "Will quantum computers break encryption soon?", model: "gemini" }],
    });
    expect((await expectJson(show.rankings(1), 200)).rankings.map((r) => r.id)).toEqual([second.rankingId]);
  });
});

describe("GET /v1/shows/:showId/rankings/:rankingId", () => {
  it("answers the ranking as rank did, and says which picks were used since", async () => {
    const { show, ranked } = await showWithHistory("read");
    const pick = ranked.picks[0]!;
    const before = await expectJson(show.ranking(ranked.rankingId!), 200);
    expect(before.picks).toEqual([expect.objectContaining({ id: pick.id, text: pick.text, confidence: 0.6, wasUsed: false })]);
    expect(before.filtered).toEqual([expect.objectContaining({ text: REWORDED, askedAt: T10_00, override: null })]);
    // The request as sent, the default top N included: a console re-ranks from it.
    expect(before.asked).toEqual({
      topN: 5,
      candidates: [
        { text: REWORDED, model: "claude", confidence: 0.9 },
        { text: "Will quantum computers break encryption soon?", model: "gemini", confidence: 0.6 },
      ],
    });
    await expectJson(show.used(pick.id!), 200);
    const after = await expectJson(show.ranking(ranked.rankingId!), 200);
    expect(after.picks[0]!.wasUsed).toBe(true);
    // Read again, a ranking is what it was: the picks are not "100% similar, asked just now" to themselves.
    expect(after.filtered.map((f) => f.text)).toEqual([REWORDED]);
  });

  it("is a 404 for a ranking the show does not have, also another tenant's", async () => {
    const { show, ranked } = await showWithHistory("missing");
    await expectError(show.ranking("rk_nope"), 404, "NOT_FOUND");
    const other = await newTenant();
    const theirs = showClient(other.clientKey, fixedClock(T10_00)).show("missing");
    await expectError(theirs.ranking(ranked.rankingId!), 404, "NOT_FOUND");
  });
});

describe("POST /v1/shows/:showId/overrides", () => {
  it("records the filtered question as used with who and when, and stores the pair as a calibration label", async () => {
    const { tenant, show, clock, ranked, askedId } = await showWithHistory("use-anyway");
    clock.set(T10_00 + 9 * MIN);
    const res = await expectJson(
      show.override({ text: REWORDED, model: "claude", againstQuestionId: askedId, rankingId: ranked.rankingId! }),
      201,
    );
    expect(res).toMatchObject({
      created: true,
      override: { text: REWORDED, againstQuestionId: askedId, againstQuestion: ASKED, by: "producer-ai", at: T10_00 + 9 * MIN },
      label: { a: REWORDED, b: ASKED, label: "related", createdBy: "override:client:producer-ai" },
    });
    const history = await expectJson(show.history(60), 200);
    expect(history.questions[0]).toMatchObject({ id: res.override.questionId, text: REWORDED, wasUsed: true, source: "override" });
    const detail = await expectJson(show.ranking(ranked.rankingId!), 200);
    expect(detail.filtered[0]!.override).toMatchObject({ id: res.override.id, by: "producer-ai" });

    const labels = await env.DB.prepare("SELECT a, b, label, created_by FROM calibration_label_pairs WHERE tenant_id = ?")
      .bind(tenant.tenantId)
      .all();
    expect(labels.results).toEqual([{ a: REWORDED, b: ASKED, label: "related", created_by: "override:client:producer-ai" }]);

    // The used question now blocks its repeats at any age.
    clock.set(T10_00 + 50 * MIN);
    const again = await expectJson(show.rank({ candidates: [{ text: REWORDED, model: "gpt-4o" }], record: false }), 200);
    expect(again.filtered[0]).toMatchObject({ reason: "similar_to_used" });
  });

  it("answers the first override again for the same ranking and text, and upserts the label by pair", async () => {
    const { tenant, show, ranked, askedId } = await showWithHistory("twice");
    const body = { text: REWORDED, againstQuestionId: askedId, rankingId: ranked.rankingId! };
    const first = await expectJson(show.override(body), 201);
    const second = await expectJson(show.override(body), 200);
    expect(second).toMatchObject({ created: false, override: { id: first.override.id } });
    const n = await env.DB.prepare("SELECT COUNT(*) AS n FROM calibration_label_pairs WHERE tenant_id = ?")
      .bind(tenant.tenantId)
      .first<{ n: number }>();
    expect(n?.n).toBe(1);
    expect((await expectJson(show.history(60), 200)).questions.filter((q) => q.source === "override")).toHaveLength(1);
  });

  it("never lets a client key's override replace an admin's label, and leaves none without a ranking (hardening round 3)", async () => {
    const { tenant, show, ranked, askedId } = await showWithHistory("weak-labels");
    await expectJson(
      apiClient(tenant.adminKey).v1.admin.calibration.pairs.$post({ json: { pairs: [{ a: REWORDED, b: ASKED, label: "paraphrase" }] } }),
      200,
    );
    const overridden = await expectJson(show.override({ text: REWORDED, againstQuestionId: askedId, rankingId: ranked.rankingId! }), 201);
    expect(overridden.label).toBeNull();
    const labels = await env.DB.prepare("SELECT label, created_by FROM calibration_label_pairs WHERE tenant_id = ?")
      .bind(tenant.tenantId)
      .all<{ label: string; created_by: string }>();
    expect(labels.results).toEqual([{ label: "paraphrase", created_by: expect.not.stringMatching(/^override:/) }]);
    const ungrounded = await expectJson(show.override({ text: "Any text at all, no ranking behind it", againstQuestionId: askedId }), 201);
    expect(ungrounded.label).toBeNull();
  });

  it("refuses what it cannot ground: an unknown question or ranking (404), a text the ranking did not filter (400), an ended show (409)", async () => {
    const { show, ranked, askedId } = await showWithHistory("refusals");
    await expectError(show.override({ text: REWORDED, againstQuestionId: "q_nope" }), 404, "NOT_FOUND");
    await expectError(show.override({ text: REWORDED, againstQuestionId: askedId, rankingId: "rk_nope" }), 404, "NOT_FOUND");
    await expectError(
      show.override({ text: "Will quantum computers break encryption soon?", againstQuestionId: askedId, rankingId: ranked.rankingId! }),
      400,
      "VALIDATION_FAILED",
    );
    await expectError(show.override({ text: " ", againstQuestionId: askedId }), 400, "VALIDATION_FAILED");
    await expectJson(show.end(), 200);
    await expectError(show.override({ text: REWORDED, againstQuestionId: askedId, rankingId: ranked.rankingId! }), 409, "CONFLICT");
  });
});

describe("POST /v1/shows/:showId/refresh { topic }", () => {
  it("takes out every consciousness question of the demo show and nothing else", async () => {
    const { clientKey } = await newTenant();
    const show = showClient(clientKey, fixedClock(T10_00)).show("demo-topic");
    // The demo show (scripts/demo-seed.mjs) plus two questions in other forms of the word.
    await expectJson(
      show.addQuestions({
        questions: [
          { text: "What evidence supports machine consciousness?", topics: ["consciousness"] },
          { text: "How do emotions differ between humans and language models?", topics: ["emotions"] },
          { text: "Is consciousness binary or a spectrum?" },
          { text: "Who should be liable when an autonomous car crashes?" },
          { text: "Can we prove AI systems are conscious?" },
          { text: "Could a chatbot ever act consciously?" },
          { text: "Is painting a skill machines can learn?" },
        ],
      }),
      201,
    );
    const refreshed = await expectJson(show.refresh({ topic: "consciousness" }), 200);
    expect(refreshed.count).toBe(4);
    expect(refreshed.questions.map((q) => q.text).sort()).toEqual(
      [
        "Can we prove AI systems are conscious?",
        "Could a chatbot ever act consciously?",
        "Is consciousness binary or a spectrum?",
        "What evidence supports machine consciousness?",
      ].sort(),
    );
    expect(refreshed.forgotten).toEqual(refreshed.questions.map((q) => q.id));
    const status = await expectJson(show.status(), 200);
    expect(status.questionsInMemory).toBe(3);
    expect((await expectJson(show.refresh({ topic: "pain" }), 200)).count).toBe(0);
  });
});

describe("the rankings a show keeps", () => {
  it("are its newest MAX_STORED_RANKINGS, and retention deletes older ones with the questions", async () => {
    const stub = env.SHOW_MEMORY.get(env.SHOW_MEMORY.idFromName("t_rankings:kept"));
    const kept = await runInDurableObject(stub, (_o: ShowMemory, state) => {
      const sql = state.storage.sql;
      for (let i = 0; i < MAX_STORED_RANKINGS + 5; i++) {
        saveRanking(sql, {
          id: `rk_${i}`,
          rankedAt: T10_00 + i * MIN,
          by: "k",
          embedding: { model: "m", calibrated: false },
          candidateCount: 0,
          picks: [],
          filtered: [],
          notPicked: [],
        });
      }
      const all = listRankings(sql, 1000).map((r) => r.id);
      const pruned = pruneRankings(sql, T10_00 + 50 * MIN);
      return { all, pruned, left: listRankings(sql, 1000).length };
    });
    expect(kept.all).toHaveLength(MAX_STORED_RANKINGS);
    expect(kept.all[0]).toBe(`rk_${MAX_STORED_RANKINGS + 4}`);
    expect(kept.all.at(-1)).toBe("rk_5");
    expect(kept.pruned).toBe(45);
    expect(kept.left).toBe(MAX_STORED_RANKINGS - 45);
  });
});
