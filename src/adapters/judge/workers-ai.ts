/**
 * The Workers AI judge (the default wherever an AI binding is present, see select.ts): an
 * instruct model answers the ticket pipeline's two questions in JSON mode (a JSON schema in
 * `response_format`; Workers AI then answers `{ response: { … } }`, an object). A text answer
 * (`{ response: "…" }`, older models or a model ignoring the schema) is read for its first {…}.
 * Either way the verdict is validated by zod; an invalid one or an error (JSON mode's "couldn't be
 * met" included) is asked again once, then the heuristic judge decides and the verdict's `judge`
 * says so. No answer within the timeout goes to the heuristic at once, and the model is skipped
 * for a while (src/platform/deadlines/breaker.ts): a hung model costs the ticket queue one wait, not two per ticket. The prompts are documented in docs/guides/ticket-pipeline.md ("The judge").
 */
import { z } from "zod";
import { heuristicJudge } from "../../platform/judge/heuristic";
import type { AnswerVerdict, FaqForJudge, Judge, MergeVerdict, PairLeftovers, TicketForJudge } from "../../platform/judge/port";
import { err, ok, type Result } from "../../core/base/result";
import { DeadlineMissed, withDeadline } from "../../platform/deadlines/breaker";

export const DEFAULT_JUDGE_MODEL = "@cf/meta/llama-3.1-8b-instruct";
/** One model call may take this long; the pipeline then asks again or falls back. */
export const JUDGE_TIMEOUT_MS = 8000;
/** Calls per question before the heuristic decides. */
export const JUDGE_ATTEMPTS = 2;

export interface TextGenerator {
  run(
    model: string,
    inputs: {
      messages: { role: "system" | "user"; content: string }[];
      max_tokens?: number;
      response_format?: { type: "json_schema"; json_schema: Record<string, unknown> };
    },
  ): Promise<unknown>;
}

export const JUDGE_SYSTEM_PROMPT =
  "You review support tickets for an FAQ knowledge base. You compare a resolved ticket with one FAQ entry and answer with one JSON object that follows the given schema, and nothing else.";

const pair = (ticket: TicketForJudge, faq: FaqForJudge) =>
  `FAQ question: ${faq.question}\nFAQ answer: ${faq.answer}\n\nTicket question: ${ticket.question}\nTicket answer: ${ticket.answer}\n\n`;

export const ANSWER_PROMPT = (ticket: TicketForJudge, faq: FaqForJudge) =>
  pair(ticket, faq) +
  "Does the ticket answer add information that the FAQ answer lacks (a new fact, condition, number or step; not a rewording)? " +
  'Reply {"addsInformation": true|false, "rationale": "one sentence", "suggestedAnswer": "only when true: the FAQ answer with the new information merged in"}';

/** The alignment's leftovers as the model reads them; nothing when every word matched. */
const leftoverLines = (leftovers?: PairLeftovers) =>
  [
    leftovers?.onlyTicket.length ? `Words only the ticket question says: ${leftovers.onlyTicket.join(", ")}` : "",
    leftovers?.onlyFaq.length ? `Words only the FAQ question says: ${leftovers.onlyFaq.join(", ")}` : "",
    leftovers?.differs.length ? `Differences found: ${leftovers.differs.join("; ")}` : "",
  ]
    .filter(Boolean)
    .map((line) => `${line}\n`)
    .join("");

export const MERGE_PROMPT = (ticket: TicketForJudge, faq: FaqForJudge, leftovers?: PairLeftovers) =>
  pair(ticket, faq) +
  leftoverLines(leftovers) +
  "Is the ticket asking the FAQ's question in other words (MERGE), or a different question that needs its own FAQ entry (NEW)? " +
  "A single word can make another question (a time, a period, whose, most or least, another code or product). " +
  'Reply {"action": "MERGE"|"NEW", "rationale": "one sentence"}';

const answerVerdictSchema = z
  .object({ addsInformation: z.boolean(), rationale: z.string().min(1), suggestedAnswer: z.string().optional() })
  // "adds information" without the merged answer cannot be staged: not usable.
  .refine((v) => !v.addsInformation || (v.suggestedAnswer ?? "").trim().length > 0);
const mergeVerdictSchema = z.object({ action: z.enum(["MERGE", "NEW"]), rationale: z.string().min(1) });

const ANSWER_JSON_SCHEMA = {
  type: "object",
  properties: { addsInformation: { type: "boolean" }, rationale: { type: "string" }, suggestedAnswer: { type: "string" } },
  required: ["addsInformation", "rationale"],
};
const MERGE_JSON_SCHEMA = {
  type: "object",
  properties: { action: { type: "string", enum: ["MERGE", "NEW"] }, rationale: { type: "string" } },
  required: ["action", "rationale"],
};

export interface WorkersAiJudgeOptions {
  model?: string;
  timeoutMs?: number;
}

export function workersAiJudge(ai: TextGenerator, options: WorkersAiJudgeOptions = {}): Judge {
  const model = options.model ?? DEFAULT_JUDGE_MODEL;
  const timeoutMs = options.timeoutMs ?? JUDGE_TIMEOUT_MS;
  const judge = `workers-ai:${model}`;

  /** The validated verdict, or why there is none. */
  async function ask<T>(prompt: string, jsonSchema: Record<string, unknown>, schema: z.ZodType<T>): Promise<Result<T, string>> {
    let reason = "unusable model answer";
    for (let attempt = 0; attempt < JUDGE_ATTEMPTS; attempt++) {
      try {
        const out = await withDeadline(
          () =>
            ai.run(model, {
              messages: [
                { role: "system", content: JUDGE_SYSTEM_PROMPT },
                { role: "user", content: prompt },
              ],
              max_tokens: 512,
              response_format: { type: "json_schema", json_schema: jsonSchema },
            }),
          { ms: timeoutMs, breakerKey: judge, part: "the judge model" },
        );
        const parsed = schema.safeParse(verdictObject(out));
        if (parsed.success) return ok(parsed.data);
        reason = "unusable model answer";
      } catch (error) {
        // A model that missed its deadline is skipped now: asking again would not reach it.
        if (error instanceof DeadlineMissed) return err(error.message);
        reason = "unusable model answer";
      }
    }
    return err(reason);
  }

  return {
    kind: judge,
    async answerAddsInformation(ticket, faq): Promise<AnswerVerdict> {
      const verdict = await ask(ANSWER_PROMPT(ticket, faq), ANSWER_JSON_SCHEMA, answerVerdictSchema);
      if (verdict.ok) {
        const { addsInformation, rationale, suggestedAnswer } = verdict.value;
        return { addsInformation, rationale, ...(addsInformation && suggestedAnswer ? { suggestedAnswer } : {}), judge };
      }
      const fallback = await heuristicJudge.answerAddsInformation(ticket, faq);
      return { ...fallback, judge: `${judge} → heuristic (${verdict.error})` };
    },
    async mergeOrNew(ticket, faq, similarity, leftovers): Promise<MergeVerdict> {
      const verdict = await ask(MERGE_PROMPT(ticket, faq, leftovers), MERGE_JSON_SCHEMA, mergeVerdictSchema);
      if (verdict.ok) return { ...verdict.value, judge };
      const fallback = await heuristicJudge.mergeOrNew(ticket, faq, similarity);
      return { ...fallback, judge: `${judge} → heuristic (${verdict.error})` };
    },
  };
}

/**
 * The verdict object of a text-generation answer: JSON mode's `{ response: { … } }`, or the first
 * {…} in `{ response: "…" }`; null for anything else.
 */
function verdictObject(out: unknown): unknown {
  const response = (out as { response?: unknown } | null)?.response;
  if (response && typeof response === "object" && !Array.isArray(response)) return response;
  if (typeof response !== "string") return null;
  const start = response.indexOf("{");
  const end = response.lastIndexOf("}");
  if (start < 0 || end <= start) return null;
  try {
    return JSON.parse(response.slice(start, end + 1)) as unknown;
  } catch {
    return null;
  }
}
