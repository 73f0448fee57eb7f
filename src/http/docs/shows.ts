import { describe } from "../openapi/describe";
import { z } from "zod";
import { nextCursorSchema } from "../pagination";
import { nullableString, obj } from "./common";

/** Epoch milliseconds (the show routes speak the Durable Object's clock). */
export const epochMs = z.number().int();
const method = z.enum(["embedding", "lexical"]);
const rounded = z.number().nullable();
const unitOrNull = z.number().min(0).max(1).nullable();

const similarTo = {
  mostSimilarQuestion: z.string(),
  mostSimilarQuestionId: nullableString,
  similarity: unitOrNull,
  rawCosine: z.number().min(-1).max(1).nullable(),
  method,
  minutesAgo: z.number().int().nullable().describe("Whole minutes since it was asked; null for another candidate of the same batch"),
  askedAt: epochMs.nullable().describe("When it was asked (a screen shows the clock time); null for another candidate of the same batch"),
  evidence: nullableString.describe(
    'Why the same-question decision took it for the same question or not ("same question, score 0.93", "differs: enable ≠ disable"); null where it was not asked (below the block line)',
  ),
};

/** A picked candidate (the shape of `picks` in a ranking). */
export const pickFields = {
  id: nullableString.describe("The stored question's id; null when not recorded"),
  text: z.string(),
  model: z.string(),
  confidence: z.number().min(0).max(1),
  score: rounded,
  novelty: unitOrNull,
  votes: z.array(z.string()),
  boosted: z.boolean(),
  warnings: z.array(obj({ ...similarTo, kind: z.enum(["penalized", "close_to_pick"]), message: z.string() })),
};
/** A filtered candidate (the shape of `filtered` in a ranking). */
export const filteredFields = {
  text: z.string(),
  model: z.string(),
  reason: z.enum(["duplicate_in_batch", "similar_to_recent", "similar_to_used"]),
  message: z.string(),
  ...similarTo,
};
export const rankFields = {
  notPicked: z.array(obj({ text: z.string(), score: rounded })),
  recorded: z.number().int().describe("How many picks were recorded in the show's memory"),
  embedding: obj({ model: z.string(), calibrated: z.boolean() }),
};

export const Rank = obj({
  rankingId: nullableString.describe("The stored ranking (GET …/rankings/{rankingId}); null with `record: false`"),
  picks: z.array(obj(pickFields)),
  filtered: z.array(obj(filteredFields)),
  ...rankFields,
});

export const Check = obj({
  isSimilar: z.boolean(),
  mostSimilarQuestion: nullableString,
  mostSimilarQuestionId: nullableString,
  similarity: rounded,
  rawCosine: rounded,
  method: method.nullable(),
  minutesAgo: z.number().int().nullable(),
  evidence: nullableString.describe("The same-question decision's reason, when the question was past the block line"),
  novelty: rounded,
});

export const AddedQuestions = obj({ ids: z.array(z.string()), questionCount: z.number().int() });
export const Used = obj({ id: z.string(), wasUsed: z.literal(true) });
export const Refreshed = obj({
  forgotten: z.array(z.string()).describe("The ids taken out of the active window"),
  count: z.number().int(),
  questions: z.array(obj({ id: z.string(), text: z.string() })).describe("The same questions with their text"),
});

export const History = obj({
  questions: z.array(
    obj({
      id: z.string(),
      text: z.string(),
      model: nullableString,
      confidence: z.number().nullable(),
      askedAt: epochMs,
      minutesAgo: z.number().int(),
      wasUsed: z.boolean(),
      topicTags: z.array(z.string()),
      novelty: rounded,
      source: z.enum(["pick", "added", "override"]).describe("override: a filtered question the producer used anyway"),
      forgottenAt: epochMs.nullable(),
    }),
  ),
  nextCursor: nextCursorSchema,
});

export const NoveltyConfig = obj({
  enabled: z.boolean(),
  maxCacheSize: z.number().int(),
  similarityThreshold: z.number(),
  penaltySimilarityThreshold: z.number(),
  noveltyBoostThreshold: z.number(),
  decayTimeConstantMinutes: z.number(),
  retentionDays: z.number().int(),
}).meta({ id: "NoveltyConfig" });

const summary = {
  startedAt: epochMs.nullable(),
  lastActivityAt: epochMs.nullable(),
  endedAt: epochMs.nullable(),
  questionCount: z.number().int(),
  usedCount: z.number().int(),
  averageNovelty: rounded,
};

export const Status = obj({
  showId: z.string(),
  ...summary,
  enabled: z.boolean(),
  questionsInMemory: z.number().int(),
  showDurationMinutes: z.number().int(),
  config: NoveltyConfig,
});
export const Config = obj({ config: NoveltyConfig });
export const Ended = obj({ showId: z.string(), ...summary });
export const Shows = obj({
  shows: z.array(obj({ showId: z.string(), ...summary, lastActivityAt: epochMs })),
  nextCursor: nextCursorSchema,
});

/** Seed 004's scenario: #5 repeats #1 (87 % similar) and is filtered; a new angle is picked. */
const RANK_EXAMPLE = {
  rankingId: "rk_2c9e",
  picks: [
    {
      id: "sq_7f3a",
      text: "Which experiments could show an AI has preferences of its own?",
      model: "claude",
      confidence: 0.8,
      score: 0.7128,
      novelty: 0.82,
      votes: ["gpt"],
      boosted: true,
      warnings: [],
    },
  ],
  filtered: [
    {
      text: "Can we prove AI systems are conscious?",
      model: "gpt",
      reason: "similar_to_recent",
      message: '87% similar to "What evidence supports machine consciousness?" 8 min ago (same question, score 0.87)',
      mostSimilarQuestion: "What evidence supports machine consciousness?",
      mostSimilarQuestionId: "sq_01b2",
      similarity: 0.87,
      rawCosine: 0.81,
      method: "embedding",
      minutesAgo: 8,
      askedAt: 1760868120000,
      evidence: "same question, score 0.87",
    },
  ],
  notPicked: [],
  recorded: 1,
  embedding: { model: "use-lite-512", calibrated: true },
};

const showIdRule = "Show ids match ^[A-Za-z0-9_-]{1,64}$; one Durable Object per tenant and show.";
const embedderDown = { 503: "the embedding model is unavailable; nothing was recorded" } as const;

export const showDocs = {
  list: describe({
    tag: "Shows",
    summary: "List shows",
    description:
      "The tenant's shows from the D1 archive, most recently active first; `limit` 1..200 (50) per page, `cursor` = the previous page's `nextCursor`.",
    responses: { 200: Shows },
  }),
  rank: describe({
    tag: "Shows",
    summary: "Rank candidate questions",
    description: `The best topN of the 8–12 candidates an analysis generated that do not repeat what the show already asked: batch dedupe, history check (blocked above similarityThreshold to the last 30 min, penalized, boosted), novelty, cross-model votes, diversity. All texts are embedded in one call. ${showIdRule}`,
    responses: { 200: { schema: Rank, example: RANK_EXAMPLE } },
    errors: { ...embedderDown, 409: "the show has ended (with record)" },
    requestExample: {
      candidates: [
        { text: "Can we prove AI systems are conscious?", model: "gpt", confidence: 0.9 },
        { text: "Which experiments could show an AI has preferences of its own?", model: "claude", confidence: 0.8 },
        { text: "What experiments could reveal whether an AI has its own preferences?", model: "gpt", confidence: 0.7 },
      ],
      topN: 2,
    },
  }),
  check: describe({
    tag: "Shows",
    summary: "Check one question",
    description: "Whether ranking would block this text now (the same rule), its most similar question and its novelty; records nothing.",
    responses: { 200: Check },
    errors: embedderDown,
  }),
  addQuestions: describe({
    tag: "Shows",
    summary: "Record questions asked outside the ranking",
    description: "They join the show's memory like picks.",
    responses: { 201: AddedQuestions },
    errors: { ...embedderDown, 409: "the show has ended" },
  }),
  used: describe({
    tag: "Shows",
    summary: "Mark a question used",
    description: "The host asked it: similarity to it counts × 1.15 and blocks at any age in the window. No body (or `{}`).",
    responses: { 200: Used },
    errors: { 404: "no such question in this show" },
  }),
  refresh: describe({
    tag: "Shows",
    summary: "Take questions out of the active window",
    description:
      "`{ questionIds }` or `{ topic }`: the host wants to revisit them; they stay in the history. A show that never existed is a 404.",
    responses: { 200: Refreshed },
    errors: { 404: "no show was ever started or configured under this id" },
  }),
  history: describe({
    tag: "Shows",
    summary: "Show history",
    description:
      "Questions of the last `minutes`, newest first; `limit` 1..500 (100) per page, `cursor` = the previous page's `nextCursor` (null: nothing more in the window).",
    responses: { 200: History },
  }),
  status: describe({
    tag: "Shows",
    summary: "Show status",
    description: "Questions in memory, duration, average novelty of the picks, config.",
    responses: { 200: Status },
  }),
  config: describe({
    tag: "Shows",
    summary: "Change a show's settings",
    description: "Any of the novelty settings; thresholds must keep noveltyBoost ≤ penalty ≤ similarity.",
    responses: { 200: Config },
  }),
  end: describe({
    tag: "Shows",
    summary: "End a show",
    description:
      "The window is cleared; later recording calls answer 409. No body (or `{}`). A show id under which nothing was ever recorded or configured is a 404: it is not created ended.",
    responses: { 200: Ended },
    errors: { 404: "no show was ever started or configured under this id" },
  }),
};
