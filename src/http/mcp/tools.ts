/**
 * The MCP tools: each one is a route of the API, with that route's own zod schema as its input
 * schema (path parameters merged in) and a description an LLM can act on. Calls go through the
 * route (src/http/dispatch.ts), so a tool behaves, validates and fails exactly like the API.
 */
import { z, type ZodObject } from "zod";
import { contextSchema } from "../routes/context";
import { searchFaqSchema } from "../schemas/faqs";
import { newMemorySchema, searchSchema } from "../routes/memories";
import { analyzeSchema } from "../routes/query";
import { similarSchema } from "../routes/questions";
import { explainSchema } from "../routes/similarity";
import { idParam } from "../schemas/shared";
import { questionParam, rankSchema, showParam } from "../routes/shows";

export interface RecallTool {
  name: string;
  description: string;
  method: "GET" | "POST";
  /** The route's path parameters (validated here: they become part of the URL). */
  params?: ZodObject;
  /** The route's JSON body (validated by the route itself). */
  body?: ZodObject;
  path: (params: Record<string, string>) => string;
  /** How the result reads to the model; JSON by default. */
  present?: (result: unknown) => string;
}

const segment = encodeURIComponent;

export const RECALL_TOOLS: readonly RecallTool[] = [
  {
    name: "remember",
    description:
      "Store a memory in a scope (e.g. 'user:42' or 'project:x'): a fact, decision, insight or question the user wants kept. Questions asked again are counted instead of stored twice.",
    method: "POST",
    body: newMemorySchema,
    path: () => "/v1/memories",
  },
  {
    name: "search_memories",
    description:
      "Find memories of a scope by meaning and by keyword (hybrid of vector similarity, full text, recency, frequency and importance). Use before answering when past facts or decisions may matter.",
    method: "POST",
    body: searchSchema,
    path: () => "/v1/memories/search",
  },
  {
    name: "similar_questions",
    description:
      "Questions the user asked before that are similar to this one (from earlier sessions), then records this question (set record: false to only look). Use to stay consistent with earlier answers.",
    method: "POST",
    body: similarSchema,
    path: () => "/v1/questions/similar",
  },
  {
    name: "get_context",
    description:
      "Everything worth knowing before answering a prompt, as one markdown block: similar past questions, known facts about the user, relevant memories. Trivial prompts ('ok', '/cmd') return nothing.",
    method: "POST",
    body: contextSchema,
    path: () => "/v1/context",
    present: (result) => (result as { markdown?: string }).markdown || "Nothing relevant is remembered for this prompt.",
  },
  {
    name: "explain_similarity",
    description:
      "Whether two questions are the same question (one answer serves both), related (same topic, another question) or different, with the evidence: similarity, shared words and what differs (a code, an opposite action, another product or plan). The same decision Recall uses to dedupe, to show questions asked before and to act on tickets.",
    method: "POST",
    body: explainSchema,
    path: () => "/v1/similarity/explain",
  },
  {
    name: "analyze_query",
    description:
      "How Recall understands a text: trivial or searchable, whether it is a question and of which type, its language and its search keywords. No storage is read or written.",
    method: "POST",
    body: analyzeSchema,
    path: () => "/v1/query/analyze",
  },
  {
    name: "faq_search",
    description:
      "Search the FAQ knowledge base by meaning and keyword (questions, their variants and answers); returns the best FAQs with their answers and scores.",
    method: "POST",
    body: searchFaqSchema,
    path: () => "/v1/faqs/search",
  },
  {
    name: "faq_get",
    description: "One FAQ by id (from faq_search): its question, answer, variants, related FAQs and hit statistics.",
    method: "GET",
    params: idParam,
    path: ({ id }) => `/v1/faqs/${segment(id!)}`,
  },
  {
    name: "show_rank_candidates",
    description:
      "For a live show: rank candidate questions (from one or more models) and return the best topN that do not repeat what the show already asked, with the reason each other one was filtered.",
    method: "POST",
    params: showParam,
    body: rankSchema,
    path: ({ showId }) => `/v1/shows/${segment(showId!)}/rank`,
  },
  {
    name: "show_mark_used",
    description:
      "For a live show: mark a question (id from show_rank_candidates picks) as actually asked by the host, so similar questions are filtered more strongly.",
    method: "POST",
    params: questionParam,
    path: ({ showId, id }) => `/v1/shows/${segment(showId!)}/questions/${segment(id!)}/used`,
  },
];

/** The tool's input schema as JSON Schema (what tools/list advertises): body and path parameters in one object. */
export function inputJsonSchema(tool: RecallTool): Record<string, unknown> {
  const shape = { ...tool.params?.shape, ...tool.body?.shape };
  const { $schema: _ignored, ...schema } = z.toJSONSchema(z.strictObject(shape), { io: "input", unrepresentable: "any" });
  return schema;
}
