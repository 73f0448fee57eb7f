/**
 * Trivial-prompt classification (seed 001, R1): prompts that would only produce noise are not
 * searched at all. Rules, in this order: slash command, fewer than MIN_QUERY_WORDS words,
 * acknowledgment. Pure and cheap: no I/O, a handful of string operations.
 */
import { normalizeText } from "./normalize";
import { countWords } from "./words";

/** Prompts with fewer words than this are too short to search (seed 001: 3). */
export const MIN_QUERY_WORDS = 3;

/**
 * Acknowledgments (compared case-insensitively, trimmed, trailing punctuation ignored). The
 * seed's list, plus longer English ones that pass the word count and common Chinese ones.
 */
export const ACKNOWLEDGMENTS: ReadonlySet<string> = new Set([
  // seed 001
  "ok",
  "okay",
  "y",
  "yes",
  "no",
  "sure",
  "thanks",
  "lgtm",
  "done",
  "next",
  "continue",
  "go ahead",
  "proceed",
  "sounds good",
  "makes sense",
  "got it",
  // English, three words or more
  "thank you",
  "thanks a lot",
  "thank you so much",
  "thanks so much",
  "looks good to me",
  "sounds good to me",
  "that makes sense",
  "ok thank you",
  "ok thanks",
  "yes please",
  "please go ahead",
  "go ahead please",
  "that works for me",
  "works for me",
  "all good",
  "perfect thank you",
  "great thanks",
  "nice work",
  "good job",
  "yes go ahead",
  "ok go ahead",
  "ok sounds good",
  "ok got it",
  "got it thanks",
  "i see",
  // Chinese
  "好",
  "好的",
  "好吧",
  "行",
  "可以",
  "嗯",
  "嗯嗯",
  "谢谢",
  "多谢",
  "收到",
  "收到了",
  "明白",
  "明白了",
  "知道了",
  "好的谢谢",
  "没问题",
  "继续",
  "下一个",
  "对",
  "是的",
  "不是",
  "不用了",
  "好的收到",
  "谢谢你",
  "非常感谢",
  "好的明白了",
  "好的没问题",
  "非常感谢你",
  "好的谢谢你",
  "谢谢你的帮助",
  "好的知道了",
  "可以继续",
]);

export type QueryClass = { class: "searchable" } | { class: "trivial"; reason: "slash command" | "too short" | "acknowledgment" };

const TRAILING_PUNCTUATION = /[\p{P}\p{S}\s]+$/u;

export function classifyQuery(prompt: string): QueryClass {
  const { text } = normalizeText(prompt);
  if (text.startsWith("/")) return { class: "trivial", reason: "slash command" };
  if (countWords(text) < MIN_QUERY_WORDS) return { class: "trivial", reason: "too short" };
  const bare = text
    .toLowerCase()
    .replace(TRAILING_PUNCTUATION, "")
    .replace(/[,，、]/g, "")
    .replace(/\s+/g, " ");
  if (ACKNOWLEDGMENTS.has(bare)) return { class: "trivial", reason: "acknowledgment" };
  return { class: "searchable" };
}
