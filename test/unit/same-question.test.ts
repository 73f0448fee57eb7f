import { describe, expect, it } from "vitest";
import { sameQuestionModelFor } from "../../src/core/scale/registry";
import { alignQuestions } from "../../src/core/decisions/align";
import { questionUnits } from "../../src/core/decisions/units";
import { findContrasts } from "../../src/core/decisions/contrasts";
import { shippedScale } from "../../src/core/scale/registry";
import { decidePair, measurePair } from "../../src/core/scale/pair";
import {
  decideSameQuestion,
  type PairMeasure,
  parseSameQuestionModel,
  type SameQuestionModel,
  UNFITTED,
} from "../../src/core/decisions/same-question";
import * as fit from "../../src/core/decisions/fit";
import { fitLogistic, probability } from "../../src/core/decisions/logistic";
import { lemma } from "../../src/core/text/lemma";
import { segmentChinese } from "../../src/core/text/segment-zh";
import { areSynonyms, wordRelation } from "../../src/core/text/synonyms";

const kinds = (a: string, b: string) => findContrasts(a, b).map((c) => `${c.kind}: ${c.detail}`);

describe("findContrasts", () => {
  it("names the words a cosine cannot read, each as a person reads it", () => {
    expect(kinds("What does error E500 mean?", "What does error E501 mean?")).toEqual(["code: e500 ≠ e501"]);
    expect(kinds("Where is order PO-12345?", "Where is order PO-12346?")).toEqual(["code: po-12345 ≠ po-12346"]);
    expect(kinds("How do I enable two-factor authentication?", "How do I disable two-factor authentication?")).toEqual([
      "opposite_action: enable ≠ disable",
    ]);
    expect(kinds("How do I import contacts?", "How do I export contacts?")).toContain("opposite_action: import ≠ export");
    expect(kinds("Which Python version does the library support?", "Which Node.js version does the library support?")).toContain(
      "named_thing: language: python ≠ node.js",
    );
    expect(kinds("Does it work with Slack?", "Does it work with Teams?")).toContain("named_thing: chat tool: slack ≠ teams");
    expect(kinds("How long does shipping take?", "How much does shipping cost?")).toContain("asked_for: asks for how long ≠ how much");
    expect(kinds("How do I share a calendar with my family?", "How do I not share a calendar with my family?")).toEqual([
      "negation: only in b: not",
    ]);
    expect(kinds("怎么开启自动续费？", "怎么关闭自动续费？")).toContain("opposite_action: 开启 ≠ 关闭");
  });

  it("names the small words that change the answer: time, period, degree, restriction", () => {
    expect(kinds("Can I return a jacket after wearing it?", "Can I return a jacket before wearing it?")).toEqual([
      "small_word: after ≠ before",
    ]);
    expect(kinds("What were our sales last month?", "What were our sales this month?")).toEqual(["small_word: last ≠ this"]);
    expect(kinds("Which song do you enjoy playing most?", "Which song do you enjoy playing least?")).toEqual(["small_word: most ≠ least"]);
    expect(kinds("Can admins export reports?", "Can only admins export reports?")).toEqual(["small_word: only in b: only"]);
    expect(kinds("上个月的账单在哪里看？", "这个月的账单在哪里看？")).toEqual(["small_word: 上 ≠ 这个"]);
  });

  it("finds one word replaced in a matched frame, and words that change places or direction", () => {
    expect(kinds("How do I rename a branch in git?", "How do I delete a branch in git?")).toEqual(["swapped_word: rename ≠ delete"]);
    expect(kinds("How do I move a task from the backlog to the sprint?", "How do I move a task from the sprint to the backlog?")).toEqual([
      'swapped_word: "backlog" and "sprint" change places',
    ]);
    expect(kinds("How do I copy a file from my host into a container?", "How do I copy a file from a container to my host?")).toEqual([
      'swapped_word: "host" and "container" change places',
    ]);
    // Any preposition whose object changed while both objects are said on both sides: the roles changed.
    expect(kinds("How do I merge my feature branch into main?", "How do I merge main into my feature branch?")).toEqual([
      'swapped_word: "main" and "feature" change places',
    ]);
    expect(kinds("Can my employer pay for my subscription?", "Can I pay for my employer's subscription?")).toEqual([
      'swapped_word: "subscription" and "employer" change places',
    ]);
    expect(kinds("How do I export data to CSV from the dashboard?", "How do I export data from the dashboard to CSV?")).toEqual([]);
    // The same noun qualified by the other's word on each side: the qualifiers changed places.
    expect(
      kinds("How do you adapt a recipe from a restaurant to a home kitchen?", "How do you adapt a home recipe for a restaurant kitchen?"),
    ).toEqual(['swapped_word: "home" and "restaurant" change places']);
    // A number counting another noun on each side.
    expect(kinds("Can I use more than one discount code on an order?", "Can I use a discount code on more than one order?")).toEqual([
      'swapped_word: "discount" and "order" change places',
    ]);
    // Two words change places while a small word stays ("but not on").
    expect(kinds("How do I see commits on my branch but not on main?", "How do I see commits on main but not on my branch?")).toEqual([
      'swapped_word: "branch" and "main" change places',
    ]);
    // Two words whose order flips around a third, persons included, unless one side is passive.
    expect(kinds("Why does my build pass locally but fail in CI?", "Why does my build fail locally but pass in CI?")).toEqual([
      'swapped_word: "pass" and "fail" change places',
    ]);
    expect(kinds("My friend sent me money but I never got it", "I sent my friend money but they never got it")).toContain(
      'swapped_word: "my" and "me" change places',
    );
    expect(kinds("Is tax included in the price shown at checkout?", "Does the price shown at checkout include tax?")).toEqual([]);
    // One person named two ways (I / my) still counts as one.
    expect(
      kinds("Does my policy cover damage I cause to someone else's car?", "Does my policy cover damage someone else causes to my car?"),
    ).toEqual(['swapped_word: "i" and "someone" change places']);
    // The doer after "by" that the active side puts after the verb; a rewording puts it first.
    expect(kinds("What was it like being directed by your wife?", "What was it like directing your wife?")).toEqual([
      'swapped_word: "directed" and "wife" change places',
    ]);
    expect(kinds("Where are the build artifacts uploaded by the pipeline?", "Where does the pipeline upload the build artifacts?")).toEqual(
      [],
    );
    // A negation of another verb.
    expect(kinds("I didn't receive my order but it's marked as delivered", "I received my order but it's marked as not delivered")).toEqual(
      ['swapped_word: "not" and "received" change places'],
    );
    expect(kinds("Why isn't my card being accepted?", "Why is my card not being accepted?")).toEqual([]);
    // The tense, read from the auxiliary; one side's alone is taken for granted.
    expect(kinds("How many shows are you playing in Japan?", "How many shows did you play in Japan?")).toEqual(["small_word: are ≠ did"]);
    expect(kinds("Why was my card declined?", "Why did my card get declined?")).toEqual([]);
    // Who did it, or whom it was done to.
    expect(kinds("Who taught you to play guitar?", "Who did you teach to play guitar?")).toEqual(["asked_for: asks for who ≠ who did"]);
    expect(kinds("Who can I contact about billing?", "Who should I contact about billing?")).toEqual([]);
    // A verb after a noun is no compound: a reordered sentence stays a rewording.
    expect(kinds("Is tax included in the price shown at checkout?", "Does the price shown at checkout include tax?")).toEqual([]);
  });

  it("finds none in rewordings: word forms, synonyms, typos, frames, numbers written another way", () => {
    expect(kinds("What does status 429 mean in the API log?", "I see status 429 in the API log, what does it mean?")).toEqual([]);
    expect(kinds("What does error E500 mean?", "What is the 500 error?")).toEqual([]);
    expect(kinds("How do I reset my password?", "How can I reset my password?")).toEqual([]);
    expect(kinds("Should I archive an invoice if it's still open?", "Should an invoice be archived if it is still open?")).toEqual([]);
    expect(kinds("Where is the billing dashboard?", "Where is the billing dashbord?")).toEqual([]);
    expect(kinds("What inspired the new album?", "What inspired your latest album?")).toEqual([]);
    expect(kinds("What is your favorite city to tour in?", "Which city do you love touring the most?")).toEqual([]);
    expect(kinds("What did you record in '19?", "What did you record in 2019?")).toEqual([]);
    expect(kinds("Where is the invoice sent?", "Where do you send the invoice?")).toEqual([]);
  });

  it("names two words WordNet calls antonyms, though no table lists them", () => {
    expect(kinds("How do I find files larger than 100 MB?", "How do I find files smaller than 100 MB?")).toContain(
      "opposite_action: larger ≠ smaller",
    );
    expect(kinds("What's the story behind the opening track?", "What's the story behind the closing track?")).toEqual([
      "opposite_action: opening ≠ closing",
    ]);
  });

  it("does not count a side that merely says less", () => {
    expect(kinds("What does the error mean?", "What does error E500 mean?")).toEqual([]);
  });
});

describe("alignQuestions", () => {
  const left = (a: string, b: string) => {
    const al = alignQuestions(a, b);
    return { onlyA: al.onlyA.map((u) => u.text), onlyB: al.onlyB.map((u) => u.text) };
  };

  it("matches every word of a rewording: lemmas, synonyms, typos, frames, number words", () => {
    expect(left("How long do refunds take?", "How long does a refund take?")).toEqual({ onlyA: [], onlyB: [] });
    expect(left("Can I buy a gift card?", "Can I purchase a gift card?")).toEqual({ onlyA: [], onlyB: [] });
    expect(left("How do I reset my pasword?", "What's the way to reset my password")).toEqual({ onlyA: [], onlyB: [] });
    expect(left("Do you offer a 10% discount?", "Do you offer a ten percent discount?")).toEqual({ onlyA: [], onlyB: [] });
    expect(left("Why didnt I get the email?", "Why did I not get the email?")).toEqual({ onlyA: [], onlyB: [] });
    expect(left("Why is my component rendering twice?", "why is my component rendering 2 times")).toEqual({ onlyA: [], onlyB: [] });
    expect(left("What's your favorite song?", "whats ur favorite song")).toEqual({ onlyA: [], onlyB: [] });
    expect(left("Do you offer 5GB of storage?", "Do you offer 5 GB of storage?")).toEqual({ onlyA: [], onlyB: [] });
    expect(left("Is it true you once played a 10-hour set?", "Is it true you once played a 10-minute set?")).toEqual({
      onlyA: ["hour"],
      onlyB: ["minute"],
    });
  });

  it("links words WordNet relates less closely, and says so: delete / remove, change / update", () => {
    const al = alignQuestions("How do I delete a Docker volume?", "How do I remove a Docker volume?");
    expect(al.onlyA).toEqual([]);
    expect(al.links.filter((l) => l.kind === "related").map((l) => `${l.a.text}/${l.b.text}`)).toEqual(["delete/remove"]);
    expect(left("How do I change the email on my account?", "How can I update my account's email?")).toEqual({ onlyA: [], onlyB: [] });
    // Things of one kind are not related: the question picks between them.
    expect(left("Do you write your songs on piano?", "Do you write your songs on guitar?")).toEqual({
      onlyA: ["piano"],
      onlyB: ["guitar"],
    });
  });

  it("reads a sentence that asks nothing beside one that does as an aside, never a question-marked one", () => {
    const al = alignQuestions("Hi there, hope you're well. Can I change the name on my account?", "Can I change the name on my account?");
    expect(al.onlyA).toEqual([]);
    expect(al.softA.map((u) => u.text)).toEqual(["hope", "you", "are", "well"]);
    expect(left("My card was charged twice. Why?", "My card was charged twice.").onlyA).toEqual(["why"]);
    // A single sentence has no asides, whatever the need model says of it.
    expect(questionUnits("Thanks so much, hope you're well!").some((u) => u.aside)).toBe(false);
  });

  it("leaves what one side says and the other does not, as written", () => {
    expect(left("How do I change my password?", "How do I change my manager's password?")).toEqual({ onlyA: [], onlyB: ["manager"] });
    expect(left("How do I see my open pull requests?", "How do I see my team's open pull requests?")).toEqual({
      onlyA: [],
      onlyB: ["team"],
    });
    expect(left("怎么退款", "如何申请退款")).toEqual({ onlyA: [], onlyB: ["申请"] });
  });

  it("reads Chinese numbers as digits and links a compound with its morpheme", () => {
    expect(left("满100元包邮吗？", "满一百元包邮吗？")).toEqual({ onlyA: [], onlyB: [] });
    expect(left("七天无理由退货包含运费吗？", "7天无理由退货包含运费吗？")).toEqual({ onlyA: [], onlyB: [] });
    // A numeral inside a word stays the word (一般: usually).
    expect(left("一般多久到货？", "一般几天到货？")).toEqual({ onlyA: [], onlyB: [] });
    const al = alignQuestions("密码忘了怎么办", "忘记密码了怎么办");
    expect(al.links.filter((l) => l.kind === "stem").map((l) => `${l.a.text}/${l.b.text}`)).toEqual(["忘/忘记"]);
  });

  it("reads a side's own pronoun or article as nothing to contrast: my account / the account", () => {
    const al = alignQuestions("How do I close my account?", "How do I close the account?");
    expect(al.onlyA).toEqual([]);
    expect(al.softA.map((u) => u.text)).toEqual(["my"]);
  });

  it("never takes someone else's ownership for granted: it names another owner", () => {
    const al = alignQuestions("How do I delete my fork of a repository?", "How do I delete someone else's fork of my repository?");
    expect(al.onlyB.map((u) => u.text)).toEqual(["someone", "else"]);
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
  it("without a logistic model is sure only with every word matched, a high score and most words shared", () => {
    const d = decideSameQuestion(pair("How do I reset my password?", "How can I reset my password?", 0.95, 1), table);
    expect(d).toMatchObject({ relation: "same", confidence: 0.82, reason: "same question: every word matched (score 0.95)" });
    expect(
      decideSameQuestion(pair("How do I change my password?", "How do I change my manager's password?", 0.99, 0.9), table),
    ).toMatchObject({
      relation: "related",
      reason: "only in b: manager",
    });
  });

  it("never calls a pair with a contrast the same, and says why", () => {
    const d = decideSameQuestion(pair("What does error E500 mean?", "What does error E501 mean?", 0.99, 0.8), table);
    expect(d).toMatchObject({ relation: "related", reason: "differs: e500 ≠ e501" });
    expect(d.evidence.contrasts).toEqual([{ kind: "code", detail: "e500 ≠ e501" }]);
  });

  it("keeps a close pair that shares too few words as related (the safe path), a far one as different", () => {
    expect(
      decideSameQuestion(pair("How do I deploy this to Vercel?", "How do I set environment variables on Vercel?", 0.95, 0.3), table)
        .relation,
    ).toBe("related");
    expect(decideSameQuestion(pair("Where is the CORS config?", "How do I run one vitest file?", 0.59, 0), table).relation).toBe(
      "different",
    );
  });

  it("with a logistic model acts alone at or above actMin and says P(same)", () => {
    const withModel = {
      ...table,
      embedding: { ...table.embedding, logistic: { weights: [4, -1, -1, 0, 0, 0, 0, 0, 0, -2, -2, -1, 2, 0], bias: -3, actMin: 0.9 } },
    };
    const d = decideSameQuestion(pair("How long do refunds take?", "How long does a refund take?", 0.98, 0.6), withModel);
    expect(d.relation).toBe("same");
    expect(d.evidence.pSame).toBeGreaterThanOrEqual(0.9);
    expect(d.confidence).toBe(d.evidence.pSame);
    const low = decideSameQuestion(pair("How long do refunds take?", "How long does a refund take?", 0.4, 0.6), withModel);
    expect(low.relation).not.toBe("same");
    expect(low.confidence).toBeCloseTo(1 - low.evidence.pSame!, 3);
    // A looser WordNet link holds in some contexts only (refund ~ pay): sure or not, a person confirms it.
    const loose = decideSameQuestion(pair("How do I delete a Docker volume?", "How do I remove a Docker volume?", 0.98, 0.8), withModel);
    expect(loose.evidence.pSame).toBeGreaterThanOrEqual(0.9);
    expect(loose.relation).toBe("related");
    expect(loose.reason).toMatch(/^every word matched, delete ~ remove only loosely: a person confirms/);
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

  it("decides pairs as a person would, whatever the cosine says of a contrast", () => {
    expect(decidePair("What does error E500 mean?", "What does error E501 mean?", 0.99, tables).relation).toBe("related");
    expect(decidePair("How do I reset my password?", "How can I reset my password?", 0.99, tables).relation).toBe("same");
    expect(
      decidePair("Can I return a jacket after wearing it?", "Can I return a jacket before wearing it?", 0.99, tables).relation,
    ).not.toBe("same");
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

describe("fitting the thresholds (src/core/decisions/fit.ts)", () => {
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

describe("the logistic model (src/core/decisions/logistic.ts, fit.ts)", () => {
  const vector = (score: number, aligned: number) => ({
    score,
    hardContent: aligned ? 0 : 2,
    hardSmall: 0,
    soft: 0,
    asides: 0,
    weakLinks: 0,
    looseLinks: 0,
    coverage: aligned ? 1 : 0.5,
    frameDiffers: 0,
    namedContrast: 0,
    smallContrast: 0,
    replacedWord: 0,
    aligned,
    alignedScore: aligned * score,
  });

  it("learns that an aligned high-scoring pair is the same question and an unaligned one is not", () => {
    const rows = [
      ...Array.from({ length: 40 }, (_, i) => ({ x: vector(0.9 + (i % 10) / 100, 1), y: i % 20 === 0 ? 0 : 1 })),
      ...Array.from({ length: 40 }, (_, i) => ({ x: vector(0.6 + (i % 30) / 100, 0), y: i % 8 === 0 ? 1 : 0 })),
    ];
    const model = fitLogistic(rows);
    expect(probability(model, vector(0.97, 1))).toBeGreaterThan(0.85);
    expect(probability(model, vector(0.97, 0))).toBeLessThan(0.35);
  });

  it("picks the lowest actMin that keeps the pooled wrong actions within the target", () => {
    const pair = (y: number, p: number, eligible = true) => ({
      set: "s",
      group: `${y}${p}`,
      y,
      score: p,
      shared: 1,
      contrasts: 0,
      x: vector(p, 1),
      eligible,
      p,
    });
    const pairs = [...Array.from({ length: 30 }, (_, i) => pair(1, 0.6 + i / 100)), pair(0, 0.7), pair(0, 0.99, false)];
    expect(fit.fitActMin(pairs)).toBe(0.71);
  });
});

describe("English lemmas, synonyms and Chinese words (src/core/text)", () => {
  it("folds inflections and irregular forms to their WordNet lemma", () => {
    const words = ["refunds", "takes", "bought", "children", "shipping", "stopped", "touring", "boxes", "companies", "cards", "went"];
    expect(words.map(lemma)).toEqual(["refund", "take", "buy", "child", "ship", "stop", "tour", "box", "company", "card", "go"]);
    expect(lemma("faster")).toBe("faster");
  });

  it("knows WordNet synonyms of a frequent sense, and not far-fetched ones", () => {
    expect(areSynonyms("buy", "purchase")).toBe(true);
    expect(areSynonyms("fix", "repair")).toBe(true);
    expect(areSynonyms("price", "cost")).toBe(true);
    expect(areSynonyms("change", "coin")).toBe(false);
    expect(areSynonyms("rename", "delete")).toBe(false);
  });

  it("relates words by WordNet's looser links, and never co-hyponyms", () => {
    expect(wordRelation("delete", "remove")).toBe("related");
    expect(wordRelation("strange", "weird")).toBe("related");
    expect(wordRelation("enable", "disable")).toBe("opposite");
    expect(wordRelation("most", "least")).toBe("opposite");
    expect(wordRelation("piano", "guitar")).toBeNull();
    expect(wordRelation("summer", "winter")).toBeNull();
    expect(wordRelation("change", "coin")).toBeNull();
  });

  it("segments Chinese as jieba does, joining support words its dictionary lacks", () => {
    expect(segmentChinese("如何申请退款")).toEqual(["如何", "申请", "退款"]);
    expect(segmentChinese("安卓手机如何关闭定位服务")).toEqual(["安卓", "手机", "如何", "关闭", "定位", "服务"]);
    expect(segmentChinese("上个月的账单在哪里看")).toEqual(["上", "个", "月", "的", "账单", "在", "哪里", "看"]);
  });
});
