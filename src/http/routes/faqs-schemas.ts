/** Request schemas and limits of the FAQ routes (shared by the JSON routes and the NDJSON import). */
import { z } from "zod";
import { cursorParam } from "../pagination";
import { faqRelationshipTypes, faqVariantSources } from "../../db/schema";

/** Longest canonical question or variant, in characters. */
export const MAX_QUESTION_CHARS = 1000;
/** Longest answer, in characters (a 25 kB answer is refused with 400; a body over 256 KiB with 413). */
export const MAX_ANSWER_CHARS = 20_000;
export { MAX_TAGS, TAG_PATTERN } from "../../faqs/tags";
import { MAX_TAGS, TAG_PATTERN } from "../../faqs/tags";
export const MAX_METADATA_KEYS = 32;
export const MAX_FAQ_QUERY_CHARS = 2000;
export const MAX_FAQ_SEARCH_LIMIT = 50;

/**
 * Tags are trimmed and lower-cased, then letters, digits and `_ . : / -`, starting with a letter or
 * digit, ≤ 64 characters. The document shows the pattern as the input may be (surrounding white
 * space allowed, since it is trimmed).
 */
export const tagSchema = z
  .string()
  .trim()
  .toLowerCase()
  .regex(TAG_PATTERN, "a tag is letters, digits and _ . : / - (≤ 64), starting with a letter or digit")
  .meta({ pattern: `^\\s*${TAG_PATTERN.source.slice(1, -1)}\\s*$` });
const tagsSchema = z
  .array(tagSchema)
  .max(MAX_TAGS)
  .transform((tags) => [...new Set(tags)]);

/**
 * One line of printable text: line breaks and tabs (a question pasted from a ticket or a forum)
 * are folded into single spaces; other control characters are refused.
 */
const printable = (max: number) =>
  z
    .string()
    .transform((text) => text.replace(/[\t\r\n]+/g, " ").trim())
    .pipe(z.string().min(1).max(max).regex(/^[^\p{Cc}\p{Cs}]*$/u, "must not contain control characters"));

export const questionSchema = printable(MAX_QUESTION_CHARS);
/** Answers may hold newlines and tabs. */
export const answerSchema = z
  .string()
  .trim()
  .min(1)
  .max(MAX_ANSWER_CHARS)
  .regex(/^(?:[^\p{Cc}\p{Cs}]|[\t\n\r])*$/u, "must not contain control characters other than tab and newline")
  .meta({ pattern: "^\\s*(?:[^\\p{Cc}\\p{Cs}]|[\\t\\n\\r])*\\s*$" });

/** Flat metadata: keys like identifiers, values string (≤ 1000) | number | boolean | null. */
export const metadataSchema = z
  .record(z.string().regex(/^[A-Za-z_][A-Za-z0-9_.-]{0,63}$/, "metadata keys are identifiers (≤ 64)"), z.union([z.string().max(1000), z.number(), z.boolean(), z.null()]))
  .refine((m) => Object.keys(m).length <= MAX_METADATA_KEYS, `at most ${MAX_METADATA_KEYS} metadata keys`);

export const newFaqSchema = z.strictObject({
  question: questionSchema,
  answer: answerSchema,
  tags: tagsSchema.default([]),
  metadata: metadataSchema.default({}),
});

/** One NDJSON line of POST /v1/faqs/import: an FAQ with its variants. */
export const importLineSchema = newFaqSchema.extend({
  variants: z.array(questionSchema).max(200).default([]),
});

export const patchFaqSchema = z
  .strictObject({
    question: questionSchema,
    answer: answerSchema,
    tags: tagsSchema,
    metadata: metadataSchema,
    changeReason: z.string().trim().min(1).max(500),
  })
  .partial()
  .refine((p) => p.question !== undefined || p.answer !== undefined || p.tags !== undefined || p.metadata !== undefined, {
    message: "change at least one of question, answer, tags, metadata",
  });

export const newVariantSchema = z.strictObject({
  variantText: questionSchema,
  source: z.enum(faqVariantSources).default("manual"),
  sourceTicketId: z.string().trim().min(1).max(100).optional(),
});

export const newRelationshipSchema = z.strictObject({
  targetFaqId: z.string().min(1).max(100),
  relationshipType: z.enum(faqRelationshipTypes).default("related"),
});

export const searchFaqSchema = z.strictObject({
  query: z.string().trim().min(1).max(MAX_FAQ_QUERY_CHARS),
  limit: z.number().int().min(1).max(MAX_FAQ_SEARCH_LIMIT).default(10),
  sessionId: z.string().trim().min(1).max(128).optional(),
  /** RRF list weights; an omitted one keeps its default (bm25 0.4, vector 0.6). */
  weights: z.strictObject({ bm25: z.number().min(0).max(1), vector: z.number().min(0).max(1) }).partial().optional(),
  tags: z.array(tagSchema).min(1).max(10).optional(),
});

export const listFaqQuerySchema = z.strictObject({
  tag: tagSchema.optional(),
  q: z.string().trim().min(1).max(MAX_FAQ_QUERY_CHARS).optional(),
  cursor: cursorParam,
  limit: z.coerce.number().int().min(1).max(100).default(20),
});

export const rollbackParams = z.object({ id: z.string().min(1).max(100), version: z.coerce.number().int().min(1).max(1_000_000) });
