import { describe } from "../openapi/describe";
import { z } from "zod";
import { nextCursorSchema } from "../pagination";
import { cardKinds, indexStates, memoryTypes, versionRelations } from "../../platform/db/schema";
import { QUESTION_TYPE_PRIORITY } from "../../core/text/question-patterns";
import { isoTime, nullableString, obj, rawCosine, similarity, tags, unit } from "./common";

const lang = z.enum(["en", "zh", "mixed", "none"]);
const degradation = z.enum(["embeddings", "vector_index", "cards"]);

export const Memory = obj({
  id: z.string(),
  scope: z.string(),
  content: z.string(),
  memoryType: z.enum(memoryTypes),
  category: nullableString,
  importance: unit,
  tags,
  sessionId: nullableString,
  createdAt: isoTime,
  indexState: z.enum(indexStates),
  recallCount: z.number().int(),
}).meta({ id: "Memory" });

export const DeduplicatedMemory = Memory.extend({ deduplicated: z.literal(true) });

const endedAt = isoTime
  .nullable()
  .describe(
    'When a later statement ended what this memory says ("I left Austin" after "I live in Austin"): it ranks low and the context block marks it "[fact, until 2026-11]"; null while it holds',
  );

/** A memory as search and the context block return it. */
const memoryHitFields = {
  id: z.string(),
  content: z.string(),
  memoryType: z.enum(memoryTypes),
  score: z.number(),
  similarity,
  createdAt: isoTime,
  endedAt,
};

export const MemorySearch = obj({
  results: z.array(obj({ ...memoryHitFields, rawCosine, matchedBy: z.array(z.enum(["bm25", "vector", "card"])) })),
  degraded: z.array(degradation),
});

const SimilarQuestion = obj({
  id: z.string(),
  content: z.string(),
  context: nullableString.describe('"Category: …" as the seed\'s context block shows it'),
  category: nullableString,
  score: z.number(),
  similarity,
  rawCosine,
  relation: z
    .enum(["same", "related"])
    .describe(
      "The same question asked before, or a related one (same topic, and not sure it is the same question); unrelated questions are never returned",
    ),
  reason: z.string().describe('Why, as a person reads it: "same question, score 0.97", "differs: e500 ≠ e501"'),
  createdAt: isoTime,
}).meta({ id: "SimilarQuestion" });

export const SimilarQuestions = obj({
  isQuestion: z.boolean(),
  questions: z.array(SimilarQuestion),
  recorded: obj({ id: z.string(), deduplicated: z.boolean() }).optional(),
  degraded: z.array(degradation),
});

export const Context = obj({
  class: z.enum(["searchable", "trivial"]),
  reason: z.string().optional(),
  isQuestion: z.boolean(),
  enrichedQuery: z.string().optional(),
  markdown: z.string(),
  tokens: z.number().int(),
  sections: obj({
    similarQuestions: z.array(SimilarQuestion),
    memories: z.array(obj(memoryHitFields)),
  }),
  degraded: z.array(z.enum(["embeddings", "vector_index", "cards", "memories", "session_files"])),
});

export const SessionFiles = obj({ recorded: z.number().int() });

const expansion = obj({
  keywords: z.array(z.string()),
  variants: z.array(z.string()).describe("Other forms of the keywords (singular/plural, English ↔ Chinese), ORed after them"),
  orQuery: nullableString,
  lang,
  truncated: z.boolean(),
});

export const QueryAnalysis = obj({
  class: z.enum(["searchable", "trivial"]),
  reason: z.enum(["slash command", "too short", "acknowledgment"]).optional(),
  isQuestion: z.boolean(),
  questionType: z.enum([...QUESTION_TYPE_PRIORITY, "Generic"]),
  lang,
  expansion,
});

export const Cards = obj({
  cards: z.array(
    obj({
      id: z.string(),
      kind: z.enum(cardKinds),
      entity: z.string(),
      slot: z.string(),
      value: z.string(),
      polarity: z.enum(["positive", "negative"]).nullable(),
      confidence: unit,
      versionKey: z.string(),
      versionRelation: z.enum(versionRelations),
      sourceMemoryId: z.string(),
      createdAt: isoTime,
      eventDate: isoTime.nullable().describe("When the stated event happens or happened, when the statement says so"),
      documentDate: isoTime.describe("When the statement was made (the memory's time unless given)"),
      extra: z.record(z.string(), z.string()).nullable().describe("Further attributes of the fact, by name"),
      current: z.boolean(),
    }),
  ),
  nextCursor: nextCursorSchema,
});

/** Seed 000's similar-questions block, as POST /v1/context renders it. */
const CONTEXT_EXAMPLE = {
  class: "searchable",
  isQuestion: true,
  markdown:
    "## Similar Questions You've Asked Before\n\n1. How do I optimize React performance?\n   Context: Category: work_context\n2. What are best practices for state management? (related)\n   Context: Category: work_context\n3. When should I use useMemo vs useCallback? (related)\n   Context: Category: brief_history\n\n**NOTE:** These are questions you've asked in past conversations. Use them to:\n- Maintain consistency in your answers\n- Build on previous explanations\n- Reference past discussions if relevant\n- Avoid repeating yourself unnecessarily",
  tokens: 132,
  sections: {
    similarQuestions: [
      {
        id: "mem_01",
        content: "How do I optimize React performance?",
        context: "Category: work_context",
        category: "work_context",
        score: 0.71,
        similarity: 0.83,
        rawCosine: 0.79,
        relation: "same",
        reason: "same question, score 0.93",
        createdAt: "2026-11-02T09:15:00.000Z",
      },
      {
        id: "mem_02",
        content: "What are best practices for state management?",
        context: "Category: work_context",
        category: "work_context",
        score: 0.64,
        similarity: 0.72,
        rawCosine: 0.7,
        relation: "related",
        reason: "same topic, not sure it is the same question, score 0.74",
        createdAt: "2026-11-05T14:02:00.000Z",
      },
      {
        id: "mem_03",
        content: "When should I use useMemo vs useCallback?",
        context: "Category: brief_history",
        category: "brief_history",
        score: 0.61,
        similarity: 0.69,
        rawCosine: 0.68,
        relation: "related",
        reason: "same topic, not sure it is the same question, score 0.71",
        createdAt: "2026-11-09T17:40:00.000Z",
      },
    ],
    memories: [],
  },
  degraded: [],
};

export const memoryDocs = {
  create: describe({
    tag: "Memories",
    summary: "Store a memory",
    description:
      "Commits the memory and its full-text row, then indexes its vector (`indexState`). A question asked again in the scope is counted on the first one instead (200 with `deduplicated: true`), but only when the same-question decision is sure (`POST /v1/similarity/explain` shows it for any two texts); otherwise both are stored.",
    responses: { 201: Memory, 200: { schema: DeduplicatedMemory, description: "A question asked again: the first one, counted again" } },
    requestExample: { scope: "user:42", content: "The cat sleeps on the warm windowsill", memoryType: "fact", importance: 0.7 },
  }),
  search: describe({
    tag: "Memories",
    summary: "Search memories",
    description:
      "The weighted hybrid score (vector, text, recency, frequency, importance, card bonus) over the union of lexical (FTS5), vector and card candidates. `matchedBy` names the lists that found a memory; `degraded` what was down.",
    responses: { 200: MemorySearch },
    requestExample: { scope: "user:42", query: "kitten napping by a sunny window" },
  }),
  read: describe({
    tag: "Memories",
    summary: "Read a memory",
    description: "One memory of the key's tenant.",
    responses: { 200: Memory },
    errors: { 404: "no such memory" },
  }),
  remove: describe({
    tag: "Memories",
    summary: "Delete a memory",
    description: "Deletes the row, its full-text row, its cards (restoring a card's previous value) and its vector.",
    responses: { 204: null },
    errors: { 404: "no such memory" },
  }),
  similar: describe({
    tag: "Questions",
    summary: "Find similar questions asked before",
    description:
      "Earlier questions of the scope like this one (seed 000), then records it (`record: false` to skip). A text that is not a question answers `isQuestion: false` at once. A vector-only match needs calibrated similarity ≥ 0.60; each match is decided against the question (`relation`: the same question or a related one, with its `reason`), and unrelated ones are left out.",
    responses: { 200: SimilarQuestions },
    requestExample: { scope: "user:42", text: "How do I improve my TypeScript skills?" },
  }),
  context: describe({
    tag: "Context",
    summary: "Build the context block for a prompt",
    description:
      "Seed 000's `## Similar Questions You've Asked Before` block plus facts and relevant memories, within `tokenBudget`. Trivial prompts answer at once without a search. Additive only: a failing part leaves a 200 and is named in `degraded`. `Server-Timing: embed, total`, then `io` (round trips) and `app` (the Worker's whole time), on every answer.",
    responses: { 200: { schema: Context, example: CONTEXT_EXAMPLE } },
    requestExample: { scope: "user:42", prompt: "When should I use useMemo?" },
  }),
  sessionFiles: describe({
    tag: "Sessions",
    summary: "Record the files a session touched",
    description: "The newest distinct file names (at most 5) enrich the session's later context queries.",
    responses: { 201: SessionFiles },
    requestExample: { files: [{ path: "src/app.ts" }, { path: "src/db/schema.rs", lineIndex: 12 }] },
  }),
  analyze: describe({
    tag: "Query",
    summary: "Analyze a query",
    description:
      "The query understanding every search path uses: trivial or searchable, isQuestion, question type, language and the FTS5 keyword expansion.",
    responses: { 200: QueryAnalysis },
    requestExample: { text: "我是什么用户?" },
  }),
  cards: describe({
    tag: "Cards",
    summary: "List memory cards",
    description:
      "A scope's cards, current and past (`current`, `versionRelation`), newest first; `limit` 1..200 (50) per page, `cursor` = the previous page's `nextCursor`.",
    responses: { 200: Cards },
  }),
};
