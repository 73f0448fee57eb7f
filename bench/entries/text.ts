export { classifyQuery } from "../../src/core/text/classify";
export { expandQuery } from "../../src/core/text/expand";
export { detectQuestionType } from "../../src/core/text/question-type";
