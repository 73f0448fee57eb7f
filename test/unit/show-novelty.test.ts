import { describe, expect, it } from "vitest";
import type { Calibration } from "../../src/core/calibration/calibration";
import { DEFAULT_NOVELTY_CONFIG, configProblems } from "../../src/core/novelty/novelty-config";
import { decayFactor, lexicalSimilarity, lexicalTerms, noveltyScore } from "../../src/core/novelty/novelty";
import { checkQuestion, type PastQuestion } from "../../src/core/novelty/novelty-history";
import { type Candidate, rankCandidates } from "../../src/core/novelty/novelty-rank";

const MIN = 60_000;
const NOW = Date.UTC(2025, 9, 19, 10, 0);
const config = { ...DEFAULT_NOVELTY_CONFIG };

/** A unit vector whose cosine with e1 is s (in the e1–e2 plane), or with e_k for `axis`. */
function vec(s: number, axis = 1): Float32Array {
  const v = new Float32Array(4);
  v[0] = s;
  v[axis] = Math.sqrt(1 - s * s);
  return v;
}
const e = (k: number) => {
  const v = new Float32Array(4);
  v[k] = 1;
  return v;
};
const cand = (text: string, vector: Float32Array | null, model = "gpt-4o", confidence = 0.8): Candidate => ({
  text,
  vector,
  model,
  confidence,
  terms: lexicalTerms(text),
});
const past = (id: string, text: string, vector: Float32Array | null, minutesAgo: number, wasUsed = false): PastQuestion => ({
  id,
  text,
  vector,
  askedAt: NOW - minutesAgo * MIN,
  wasUsed,
  terms: lexicalTerms(text),
});
const rank = (
  candidates: Candidate[],
  history: PastQuestion[] = [],
  extra: Partial<typeof config> = {},
  calibration: Calibration | null = null,
) => rankCandidates({ candidates, history, now: NOW, config: { ...config, ...extra }, calibration, topN: 5 });

describe("decayFactor (seed 004 temporal decay table, e^(−t/30))", () => {
  it("reproduces the 15, 30 and 60 min rows, and gives e^(−5/30) = 0.85 at 5 min", () => {
    // The seed's table prints 0.89 at 5 min, which is 2^(−5/30) (a true 30-min half-life); its
    // 15/30/60 rows (0.61, 0.37, 0.13) and its code are e^(−t/30). We implement the code.
    expect(decayFactor(5).toFixed(2)).toBe("0.85");
    expect(decayFactor(15).toFixed(2)).toBe("0.61");
    expect(decayFactor(30).toFixed(2)).toBe("0.37");
    expect(decayFactor(60)).toBeCloseTo(0.135, 3); // seed: 0.13 ("90% → 12%": 0.9 × 0.135 = 0.12)
    expect((0.9 * decayFactor(15)).toFixed(2)).toBe("0.55"); // seed: 90% → 55%
    expect((0.9 * decayFactor(30)).toFixed(2)).toBe("0.33"); // seed: 90% → 33%
    expect(decayFactor(0)).toBe(1);
  });

  it("has a real half-life of τ·ln 2 ≈ 20.8 min for τ = 30", () => {
    expect(decayFactor(30 * Math.LN2)).toBeCloseTo(0.5, 10);
  });
});

describe("noveltyScore (seed 004 formula)", () => {
  it("is 1 − max decayed similarity, the seed's own examples (0.9 → 0.1, 0.3 → 0.7 before the bonus)", () => {
    expect(noveltyScore([{ similarity: 0.9, ageMinutes: 0 }])).toBeCloseTo(0.1, 10);
    // average recent similarity 0.3 < 0.4: + 0.1 exploration bonus
    expect(noveltyScore([{ similarity: 0.3, ageMinutes: 0 }])).toBeCloseTo(0.8, 10);
  });

  it("decays old similarity and gives the bonus when nothing recent is close, capped at 1", () => {
    expect(noveltyScore([])).toBe(1);
    const old = noveltyScore([{ similarity: 0.9, ageMinutes: 60 }]);
    expect(old).toBeCloseTo(1 - 0.9 * Math.exp(-2) + 0.1, 10);
    expect(noveltyScore([{ similarity: 0.1, ageMinutes: 1 }])).toBe(1);
  });

  it("averages only the last 30 minutes for the bonus", () => {
    // recent average 0.5 → no bonus; counting the two old 0.1s as well would make it 0.23 → bonus
    const s = noveltyScore([
      { similarity: 0.5, ageMinutes: 10 },
      { similarity: 0.1, ageMinutes: 60 },
      { similarity: 0.1, ageMinutes: 60 },
    ]);
    expect(s).toBeCloseTo(1 - 0.5 * Math.exp(-10 / 30), 10);
  });
});

describe("lexicalSimilarity (fallback for Chinese on an English-only model)", () => {
  it("tells unrelated Chinese sentences apart and finds a near-verbatim repeat", () => {
    const a = lexicalTerms("人工智能有没有意识？");
    const b = lexicalTerms("今天的天气怎么样？");
    const repeat = lexicalTerms("人工智能有没有意识呢？"); // one particle added
    const reworded = lexicalTerms("人工智能到底有没有意识？"); // "到底" inserted: 7 of 8/10 bigrams shared
    expect(lexicalSimilarity(a, b)).toBe(0);
    expect(lexicalSimilarity(a, repeat)).toBeCloseTo(8 / Math.sqrt(8 * 9), 10);
    expect(lexicalSimilarity(a, reworded)).toBeCloseTo(7 / Math.sqrt(8 * 10), 10);
    expect(lexicalSimilarity(a, a)).toBeCloseTo(1, 10);
  });
});

describe("rankCandidates", () => {
  it("drops batch duplicates (≥ 0.85 and exact repeats), keeping the more confident one", () => {
    const out = rank([
      cand("So what inspired the album?", vec(1), "gpt-4o", 0.5),
      cand("What inspired the album?", vec(0.9), "claude", 0.9),
      cand("what   INSPIRED the album?", vec(0.5), "gemini", 0.4),
      cand("B", e(2)),
    ]);
    expect(out.picks.map((p) => p.text)).toEqual(["What inspired the album?", "B"]);
    expect(out.filtered.map((f) => [f.text, f.reason, f.mostSimilarQuestion])).toEqual([
      ["So what inspired the album?", "duplicate_in_batch", "What inspired the album?"],
      ["what   INSPIRED the album?", "duplicate_in_batch", "What inspired the album?"],
    ]);
  });

  it("blocks > 0.80 vs the last 30 min with the question and its age, penalizes 0.70–0.80, boosts < 0.60", () => {
    const history = [past("q1", "What evidence supports machine consciousness?", e(0), 8)];
    const out = rank(
      [cand("blocked", vec(0.87, 1)), cand("penalized", vec(0.75, 2), "claude"), cand("novel", vec(0.2, 3), "gemini", 0.5)],
      history,
    );
    expect(out.filtered).toHaveLength(1);
    expect(out.filtered[0]).toMatchObject({
      text: "blocked",
      reason: "similar_to_recent",
      mostSimilarQuestion: "What evidence supports machine consciousness?",
      mostSimilarQuestionId: "q1",
      minutesAgo: 8,
    });
    expect(out.filtered[0]!.message).toMatch(
      /^87% similar to "What evidence supports machine consciousness\?" 8 min ago \(only in a: blocked; only in b: evidence, supports, machine, consciousness\)$/,
    );
    expect(out.filtered[0]!.evidence).toBe("only in a: blocked; only in b: evidence, supports, machine, consciousness");
    const penalized = out.picks.find((p) => p.text === "penalized")!;
    expect(penalized.warnings[0]).toMatchObject({ kind: "penalized", minutesAgo: 8 });
    expect(penalized.boosted).toBe(false);
    const novel = out.picks.find((p) => p.text === "novel")!;
    expect(novel.boosted).toBe(true);
    // novel: 0.5 × 1.1 × (0.5 + 0.5 × novelty); penalized: 0.8 × 0.7 × (0.5 + 0.5 × novelty)
    expect(novel.score).toBeCloseTo(0.5 * 1.1 * (0.5 + 0.5 * novel.novelty!), 10);
    // picked second: × (1 − 0.3 × its similarity to the first pick, 0.2 × 0.75... via e0 = 0.15)
    expect(out.picks.map((p) => p.text)).toEqual(["novel", "penalized"]);
    expect(penalized.score).toBeCloseTo(0.8 * 0.7 * (0.5 + 0.5 * penalized.novelty!) * (1 - 0.3 * 0.2 * 0.75), 5);
  });

  it("penalizes instead of blocking when the same-question decision sees a contrast, and says why", () => {
    const history = [past("q1", "How do I enable two-factor authentication?", e(0), 5)];
    const contrast = rank([cand("How do I disable two-factor authentication?", vec(0.9))], history);
    expect(contrast.filtered).toEqual([]);
    expect(contrast.picks[0]!.warnings[0]).toMatchObject({ kind: "penalized", evidence: "differs: disable ≠ enable" });
    expect(contrast.picks[0]!.warnings[0]!.message).toBe(
      '90% similar to "How do I enable two-factor authentication?" 5 min ago (differs: disable ≠ enable)',
    );
    const batch = rank([
      cand("How do I enable two-factor authentication?", e(0)),
      cand("How do I disable two-factor authentication?", vec(0.9)),
    ]);
    expect(batch.filtered).toEqual([]);
    const check = checkQuestion(cand("How do I disable two-factor authentication?", vec(0.9)), history, NOW, config, null);
    expect(check).toMatchObject({ isSimilar: false, evidence: "differs: disable ≠ enable" });
  });

  it("does not block a similar question older than 30 min, but its decayed similarity lowers novelty", () => {
    const out = rank([cand("again", vec(0.9))], [past("q1", "old", e(0), 45)]);
    expect(out.filtered).toEqual([]);
    expect(out.picks[0]!.novelty).toBeCloseTo(1 - 0.9 * Math.exp(-45 / 30) + 0.1, 5);
  });

  it("filters more strongly against questions the host used: × 1.15 and at any age", () => {
    const candidate = cand("close to used", vec(0.72));
    expect(rank([candidate], [past("q1", "asked", e(0), 50, false)]).filtered).toEqual([]);
    const used = rank([candidate], [past("q1", "asked", e(0), 50, true)]);
    expect(used.filtered[0]).toMatchObject({ reason: "similar_to_used", minutesAgo: 50 });
    expect(used.filtered[0]!.similarity).toBeCloseTo(0.72 * 1.15, 6);
  });

  it("lets models that agree raise each other (cross-model voting)", () => {
    // "shared" is proposed by gpt-4o; claude and gemini propose close (0.75) variants → 2 votes.
    const out = rank([
      cand("shared", e(0), "gpt-4o", 0.7),
      cand("variant 1", vec(0.75, 1), "claude", 0.3),
      cand("variant 2", vec(0.75, 2), "gemini", 0.3),
      cand("lone", e(3), "gpt-4o", 0.75),
    ]);
    const shared = out.picks.find((p) => p.text === "shared")!;
    expect(shared.votes).toEqual(["claude", "gemini"]);
    expect(out.picks[0]!.text).toBe("shared");
    expect(shared.score).toBeCloseTo(0.7 * 1.2, 10);
    expect(out.picks.find((p) => p.text === "lone")!.votes).toEqual([]);
  });

  it("prefers a different question over a near-copy of a pick (diversity)", () => {
    const out = rank(
      [cand("first", e(0), "gpt-4o", 0.9), cand("near copy", vec(0.8), "gpt-4o", 0.85), cand("different", e(3), "gpt-4o", 0.7)],
      [],
    );
    expect(out.picks.map((p) => p.text)).toEqual(["first", "different", "near copy"]);
    expect(out.picks[2]!.warnings[0]).toMatchObject({ kind: "close_to_pick", mostSimilarQuestion: "first" });
  });

  it("compares calibrated similarity: a raw 0.61 that the model's calibration maps to 0.87 is blocked", () => {
    const calibration: Calibration = {
      model: "m",
      method: "test",
      fittedOn: "test",
      knots: [
        [0, 0],
        [0.61, 0.87],
        [1, 1],
      ],
    };
    const history = [past("q1", "alpha", e(0), 8)];
    expect(rank([cand("x", vec(0.61))], history).filtered).toEqual([]);
    const out = rank([cand("x", vec(0.61))], history, {}, calibration);
    expect(out.filtered[0]!.similarity).toBeCloseTo(0.87, 6);
    expect(out.filtered[0]!.rawCosine).toBeCloseTo(0.61, 6);
  });

  it("uses the lexical fallback for texts without a vector (Chinese on USE-lite)", () => {
    const out = rank(
      [cand("人工智能有没有意识呢？", null), cand("今天的节目聊什么？", null, "claude")],
      [past("q1", "人工智能有没有意识？", null, 5)],
    );
    expect(out.filtered.map((f) => [f.text, f.method])).toEqual([["人工智能有没有意识呢？", "lexical"]]);
    expect(out.picks.map((p) => p.text)).toEqual(["今天的节目聊什么？"]);
  });

  it("skips the history when the show's memory is disabled", () => {
    const out = rank([cand("again", vec(0.95))], [past("q1", "x", e(0), 1)], { enabled: false });
    expect(out.filtered).toEqual([]);
    expect(out.picks[0]!.novelty).toBeNull();
  });
});

describe("checkQuestion", () => {
  it("says whether ranking would block the text, with the question and its age", () => {
    const history = [past("q1", "What evidence supports machine consciousness?", e(0), 8), past("q2", "Unrelated", e(3), 2)];
    const r = checkQuestion({ text: "t", vector: vec(0.87), terms: [] }, history, NOW, config, null);
    expect(r).toMatchObject({ isSimilar: true, mostSimilarQuestionId: "q1", minutesAgo: 8 });
    expect(checkQuestion({ text: "t", vector: vec(0.5, 2), terms: [] }, history, NOW, config, null).isSimilar).toBe(false);
  });
});

describe("config", () => {
  it("uses the seed's defaults and rejects out-of-order thresholds", () => {
    expect(DEFAULT_NOVELTY_CONFIG).toEqual({
      enabled: true,
      maxCacheSize: 100,
      similarityThreshold: 0.8,
      penaltySimilarityThreshold: 0.7,
      noveltyBoostThreshold: 0.6,
      decayTimeConstantMinutes: 30,
      retentionDays: 30,
    });
    expect(configProblems(DEFAULT_NOVELTY_CONFIG)).toEqual([]);
    expect(configProblems({ ...config, penaltySimilarityThreshold: 0.9 })).toEqual([
      "penaltySimilarityThreshold must be ≤ similarityThreshold",
    ]);
  });
});
