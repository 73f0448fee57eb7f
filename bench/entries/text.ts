export { classifyQuery } from "../../src/text/classify";
export { expandQuery } from "../../src/text/expand";
export { detectQuestionType } from "../../src/text/question-type";
