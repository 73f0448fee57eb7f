import { describe, expect, it } from "vitest";
import { sameQuestionModelFor } from "../../src/calibration/registry";
import { findContrasts, wordDifference } from "../../src/decisions/contrasts";
import { shippedScale } from "../../src/calibration/registry";
import { decidePair, measurePair } from "../../src/decisions/pair";
import {
  decideSameQuestion,
  type PairMeasure,
  parseSameQuestionModel,
  type SameQuestionModel,
  UNFITTED,
} from "../../src/decisions/same-question";
import * as fit from "../../src/decisions/fit";

const kinds = (a: string, b: string) => findContrasts(a, b).map((c) => `${c.kind}: ${c.detail}`);

describe("findContrasts", () => {
  it("names the words a cosine cannot read, each as a person reads it", () => {
    expect(kinds("What does error E500 mean?", "What does error E501 mean?")).toEqual(["code: e500 ≠ e501"]);
    expect(kinds("Where is order PO-12345?", "Where is order PO-12346?")).toEqual(["code: po-12345 ≠ po-12346"]);
    expect(kinds("How do I enable two-factor authentication?", "How do I disable two-factor authentication?")).toEqual([
      "opposite_action: enable ≠ disable",
    ]);
    expect(kinds("Can I upgrade my plan?", "Can I downgrade my plan?")).toEqual(["opposite_action: upgrade ≠ downgrade"]);
    expect(kinds("How do I import contacts?", "How do I export contacts?")).toEqual(["opposite_action: import ≠ export"]);
    expect(kinds("Which Python version does the library support?", "Which Node.js version does the library support?")).toEqual([
      "named_thing: language: python ≠ node.js",
    ]);
    expect(kinds("Can I pay annually?", "Can I pay monthly?")).toEqual(["named_thing: period: annually ≠ monthly"]);
    expect(kinds("Does it work with Slack?", "Does it work with Teams?")).toEqual(["named_thing: chat tool: slack ≠ teams"]);
    expect(kinds("How long does shipping take?", "How much does shipping cost?")).toEqual(
      ["asks for time ≠ amount"].map((d) => `asked_for: ${d}`),
    );
    expect(kinds("How do I share a calendar with my family?", "How do I stop sharing a calendar with my family?")).toEqual([
      'negation: "stop" on one side only',
    ]);
    expect(kinds("怎么开启自动续费？", "怎么关闭自动续费？")).toEqual(["opposite_action: 开启 ≠ 关闭"]);
  });

  it("finds one word swapped in a shared frame, and two words changing places", () => {
    expect(kinds("How do I rename a branch in git?", "How do I delete a branch in git?")).toEqual(["swapped_word: rename ≠ delete"]);
    expect(kinds("How do I move a task from the backlog to the sprint?", "How do I move a task from the sprint to the backlog?")).toEqual([
      'swapped_word: "backlog" and "sprint" change places',
    ]);
  });

  it("finds none in rewordings: other words, word forms, a number written the same, typos, frame words", () => {
    expect(kinds("What does status 429 mean in the API log?", "I see status 429 in the API log, what does it mean?")).toEqual([]);
    expect(kinds("What does error E500 mean?", "What is the 500 error?")).toEqual([]);
    expect(kinds("How do I reset my password?", "How can I reset my password?")).toEqual([]);
    expect(kinds("Should I archive an invoice if it's still open?", "Should an invoice be archived if it is still open?")).toEqual([]);
    expect(kinds("Where is the billing dashboard?", "Where is the billing dashbord?")).toEqual([]);
    expect(kinds("What does an E2 badge on my invoice mean?", "Is an E2 badge on my invoice something to know about?")).toEqual([]);
  });

  it("does not count a side that merely says less, nor negation in a reworded problem", () => {
    expect(kinds("What does the error mean?", "What does error E500 mean?")).toEqual([]);
    expect(kinds("My payment isn't going through", "How do I fix a failing payment on checkout?")).toEqual([]);
  });
});

describe("wordDifference", () => {
  it("leaves CJK bigrams out: a changed character is no swapped word", () => {
    expect(wordDifference("怎么修改绑定的手机号？", "绑定的手机号怎么改？")).toEqual({ onlyA: [], onlyB: [], shared: 0 });
  });
});

const table: SameQuestionModel = {
  model: "m",
  fittedOn: "test",
  embedding: {
    sameMin: 0.9,
    sharedMin: 0.5,
    relatedMin: 0.6,
    probability: [
      [0.5, 0.1],
      [1, 0.9],
    ],
    contrastConfidence: 0.8,
  },
  lexical: { sameMin: 0.9, sharedMin: 0, relatedMin: 0.2, probability: [], contrastConfidence: 0.7 },
};
const pair = (a: string, b: string, score: number, sharedWords: number): PairMeasure => ({ a, b, score, method: "embedding", sharedWords });

describe("decideSameQuestion", () => {
  it("is sure only with no contrast, a high score and most words shared", () => {
    const d = decideSameQuestion(pair("How do I reset my password?", "How can I reset my password?", 0.95, 1), table);
    expect(d).toMatchObject({ relation: "same", confidence: 0.82, reason: "same question, score 0.95" });
  });

  it("never calls a pair with a contrast the same, and says why", () => {
    const d = decideSameQuestion(pair("What does error E500 mean?", "What does error E501 mean?", 0.99, 0.8), table);
    expect(d).toMatchObject({ relation: "related", confidence: 0.8, reason: "differs: e500 ≠ e501" });
    expect(d.evidence.contrasts).toEqual([{ kind: "code", detail: "e500 ≠ e501" }]);
  });

  it("keeps a close pair that shares too few words as related (the safe path), a far one as different", () => {
    expect(
      decideSameQuestion(pair("How do I deploy this to Vercel?", "How do I set environment variables on Vercel?", 0.95, 0.3), table)
        .relation,
    ).toBe("related");
    expect(decideSameQuestion(pair("Where is the CORS config?", "How do I run one vitest file?", 0.59, 0), table)).toMatchObject({
      relation: "different",
      reason: "different, score 0.59",
    });
  });

  it("uses its own lines for texts compared by shared words", () => {
    const lexical = (score: number): PairMeasure => ({
      a: "能开发票吗？",
      b: "可以开发票吗？",
      score,
      method: "lexical",
      sharedWords: score,
    });
    expect(decideSameQuestion(lexical(0.95), table).relation).toBe("same");
    expect(decideSameQuestion(lexical(0.5), table).relation).toBe("related");
    expect(decideSameQuestion(lexical(0.1), table).relation).toBe("different");
  });

  it("without a fitted table is sure only of near-verbatim repeats", () => {
    expect(decideSameQuestion(pair("How do I reset my password?", "how do i reset my password", 0.99, 1), null).relation).toBe("same");
    expect(
      decideSameQuestion(pair("How do I reset my password?", "What do I do when I forget my password?", 0.9, 0.5), null).relation,
    ).toBe("related");
    expect(UNFITTED.embedding.sameMin).toBeGreaterThanOrEqual(0.95);
  });
});

describe("decidePair (the shipped local model's table)", () => {
  const tables = shippedScale("use-lite-512");

  it("measures with the repeat score when a cosine is given, by shared words when not", () => {
    expect(measurePair("a b c", "a b c", 1, tables)).toMatchObject({ method: "embedding", sharedWords: 1 });
    expect(measurePair("发票", "发票", null, tables)).toMatchObject({ method: "lexical", score: 1, sharedWords: 1 });
  });

  it("decides the issue's pairs as a person would", () => {
    expect(decidePair("What does error E500 mean?", "What does error E501 mean?", 0.95, tables).relation).toBe("related");
    expect(decidePair("How do I reset my password?", "How can I reset my password?", 0.99, tables).relation).toBe("same");
    expect(
      decidePair("How do I run only one test file with vitest?", "Where is the config for the CORS allowed origins?", 0.2, tables).relation,
    ).toBe("different");
  });
});

describe("decision tables", () => {
  it("the shipped table parses, and a table that is not monotone or out of range is refused at load", () => {
    expect(sameQuestionModelFor("use-lite-512")).not.toBeNull();
    expect(sameQuestionModelFor("@cf/baai/bge-m3")).toBeNull();
    const bad = (change: (t: Record<string, unknown>) => void) => {
      const t = structuredClone(table) as unknown as Record<string, Record<string, unknown>>;
      change(t.embedding!);
      return () => parseSameQuestionModel(t);
    };
    expect(() => parseSameQuestionModel(table)).not.toThrow();
    expect(bad((e) => (e.relatedMin = 0.95))).toThrow(/relatedMin ≤ sameMin/);
    expect(bad((e) => (e.sharedMin = 2))).toThrow(/sharedMin/);
    expect(
      bad(
        (e) =>
          (e.probability = [
            [0.5, 0.9],
            [1, 0.1],
          ]),
      ),
    ).toThrow(/not monotone/);
  });
});

describe("fitting the thresholds (src/decisions/fit.ts)", () => {
  const p = (set: string, y: number, score: number, shared: number, contrasts = 0, relation = y ? "same" : "related") => ({
    set,
    group: `${set}:${score}:${shared}:${y}`,
    y,
    score,
    shared,
    contrasts,
    relation,
  });

  it("allows no wrong action under 34 actions, one from 34 on", () => {
    expect(fit.wrongAllowed(33)).toBe(0);
    expect(fit.wrongAllowed(34)).toBe(1);
  });

  it("fits the lines that keep every set within the target, preferring recall", () => {
    const pairs = [
      ...Array.from({ length: 20 }, (_, i) => p("a", 1, 0.9 + i * 0.004, 0.8)),
      p("a", 0, 0.95, 0.4), // a different question close in score, sharing few words
      p("a", 0, 0.97, 0.9, 1), // a contrast: never counted
      ...Array.from({ length: 10 }, (_, i) => p("b", 1, 0.8 + i * 0.01, 0.6)),
    ];
    const { sameMin, sharedMin } = fit.fitSame(pairs);
    expect(sharedMin).toBeGreaterThan(0.4);
    expect(sharedMin).toBeLessThanOrEqual(0.6);
    expect(sameMin).toBeLessThanOrEqual(0.8);
    const acts = (q: ReturnType<typeof p>) => q.contrasts === 0 && q.score >= sameMin && q.shared >= sharedMin;
    expect(fit.actionMetrics(pairs, acts)).toMatchObject({ precision: 1, recall: 1, wrong: 0 });
  });

  it("decides nothing automatically when no line is precise enough", () => {
    const pairs = [p("a", 1, 0.9, 0.9), p("a", 0, 0.95, 0.95)];
    expect(fit.fitSame(pairs)).toEqual({ sameMin: 1, sharedMin: 1 });
  });

  it("puts relatedMin above all but 1 % of the unrelated pairs, and reads P(same) off an isotonic fit", () => {
    const unrelated = Array.from({ length: 200 }, (_, i) => p("product", 0, i / 400, 0, 0, "unrelated"));
    expect(fit.fitRelatedMin(unrelated)).toBeCloseTo(0.4925 + 1e-4, 6);
    const probability = fit.fitProbability([p("a", 0, 0.2, 0), p("a", 0, 0.6, 0), p("a", 1, 0.7, 0), p("a", 1, 0.9, 0)]);
    expect(probability).toHaveLength(21);
    expect(probability[0]).toEqual([0, 0]);
    expect(probability[20]).toEqual([1, 1]);
    for (let i = 1; i < probability.length; i++) expect(probability[i]![1]).toBeGreaterThanOrEqual(probability[i - 1]![1]);
  });

  it("measures contrast confidence on Recall's own pairs only", () => {
    expect(fit.contrastConfidence([p("product", 0, 0.9, 0.5, 1), p("product", 1, 0.9, 0.5, 1), p("mqp", 1, 0.9, 0.5, 1)])).toBe(0.5);
    expect(fit.contrastConfidence([p("mqp", 1, 0.9, 0.5, 1)])).toBe(0.5);
  });
});
