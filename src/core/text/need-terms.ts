/**
 * Every word of a prompt as a term a learned model can weigh (need.ts), so the decision reads the
 * words need-features.ts has no rule for: "lock the front door" is an act because "lock" opens it,
 * "The deploy to staging finished." tells because nothing in it asks. Binary terms, each present
 * or not:
 *
 * - `w:x`: a word, English by its WordNet lemma ("refunds" → refund), others lower-cased; each Han
 *   character is a word of its own, so Chinese needs no segmenter here;
 * - `b:x y`: two words in a row, with `^` before the first and `$` after the last ("b:^ lock",
 *   "b:怎 么", "b:thank $");
 * - `^verb` / `^noun` / `^adj`: what WordNet says the first English word can be, so a verb nobody
 *   labelled still opens an instruction;
 * - `end:?` / `end:!` / `end:.`: how the prompt ends;
 * - `<num>`, `<emoji>`: any number, any emoji.
 *
 * Code and logs are read as they are: their words are terms like any others, and need-features.ts's
 * `code` share carries what they are.
 */
import { englishLexicon, lemma } from "./lemma";

const TOKEN = /\p{Script=Han}|[\p{L}\p{N}][\p{L}\p{N}'_-]*|\p{Extended_Pictographic}/gu;

function wordOf(token: string): string {
  if (/^\p{N}+$/u.test(token)) return "<num>";
  if (/\p{Extended_Pictographic}/u.test(token)) return "<emoji>";
  const lower = token.toLowerCase().replace(/'s$/u, "");
  return /^[a-z][a-z-]*$/u.test(lower) ? lemma(lower) : lower;
}

export function needTerms(prompt: string): string[] {
  const text = prompt.replace(/[’‘]/gu, "'");
  const words = (text.match(TOKEN) ?? []).map(wordOf);
  const terms = new Set<string>();
  for (const w of words) terms.add(`w:${w}`);
  ["^", ...words, "$"].forEach((w, i, all) => i > 0 && terms.add(`b:${all[i - 1]} ${w}`));
  const first = words[0];
  if (first && /^[a-z]/u.test(first)) {
    const { verbs, nouns, adjectives } = englishLexicon();
    if (verbs.has(first)) terms.add("^verb");
    if (nouns.has(first)) terms.add("^noun");
    if (adjectives.has(first)) terms.add("^adj");
  }
  const end = /([?？!！.。])[\s"'”」)\]]*$/u.exec(text)?.[1];
  if (end) terms.add(`end:${{ "？": "?", "！": "!", "。": "." }[end] ?? end}`);
  return [...terms];
}
