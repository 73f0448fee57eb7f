/** detectQuestionType (seed 003): the first matching type in priority order, else Generic. */
import { normalizeText } from "./normalize";
import { QUESTION_PATTERNS, QUESTION_TYPE_PRIORITY, type QuestionType, type SpecificQuestionType } from "./question-patterns";

export type { QuestionType } from "./question-patterns";

const compiled = QUESTION_TYPE_PRIORITY.map((type) => ({
  type,
  regexes: [...QUESTION_PATTERNS[type].en, ...QUESTION_PATTERNS[type].zh].map((source) => new RegExp(source, "u")),
}));

export function detectQuestionType(text: string, exclude: readonly SpecificQuestionType[] = []): QuestionType {
  const lower = normalizeText(text).text.toLowerCase();
  for (const { type, regexes } of compiled) {
    if (exclude.includes(type)) continue;
    if (regexes.some((re) => re.test(lower))) return type;
  }
  return "Generic";
}

/**
 * What a Recency or Update question asks about ("我现在在哪" is Recency about a location): the
 * type detected with those two set aside, or the question's own type otherwise.
 */
export function underlyingQuestionType(text: string): QuestionType {
  const type = detectQuestionType(text);
  if (type !== "Recency" && type !== "Update") return type;
  return detectQuestionType(text, ["Recency", "Update"]);
}
