/**
 * Every word of a prompt as a term a learned model can weigh (need.ts), so the decision reads the
 * words need-features.ts has no rule for: "lock the front door" is an act because "lock" opens it.
 * Binary terms, each present or not:
 *
 * - `w:x`: a word: English by its WordNet lemma ("refunds" → refund), Chinese as jieba's
 *   dictionary cuts it (segment-zh.ts: 好玩 is one word, not 好 + 玩), others lower-cased;
 * - `b:x y`: two words in a row as written, with `^` before the first and `$` after the last, so
 *   the inflection that carries the mood stays ("b:^ remove" asks to act, "b:^ removing" names a
 *   topic);
 * - `^verb`: the first English word is a verb's base form (an imperative can open with it, a
 *   verb nobody labelled included); `^gerund`: it is a verb's -ing form, as titles open
 *   ("Removing a card in trello");
 * - `<num>`, `<emoji>`: any number, any emoji.
 *
 * How a prompt ends is left to need-features.ts (`asks`): a final full stop is a writer's habit
 * ("Strikethrough font in gmail."), not what is asked.
 */
import { englishLexicon, lemma } from "./lemma";
import { segmentChinese } from "./segment-zh";

const TOKEN = /\p{Script=Han}+|[\p{L}\p{N}][\p{L}\p{N}'_-]*|\p{Extended_Pictographic}/gu;

function surfaceOf(token: string): string {
  if (/^\p{N}+$/u.test(token)) return "<num>";
  if (/\p{Extended_Pictographic}/u.test(token)) return "<emoji>";
  return token.toLowerCase().replace(/'s$/u, "");
}

const english = (word: string) => /^[a-z][a-z-]*$/u.test(word);

export function needTerms(prompt: string): string[] {
  const text = prompt.replace(/[’‘]/gu, "'");
  const surfaces = (text.match(TOKEN) ?? []).flatMap((token) =>
    /\p{Script=Han}/u.test(token) ? segmentChinese(token) : [surfaceOf(token)],
  );
  const terms = new Set<string>();
  for (const s of surfaces) terms.add(`w:${english(s) ? lemma(s) : s}`);
  ["^", ...surfaces, "$"].forEach((s, i, all) => i > 0 && terms.add(`b:${all[i - 1]} ${s}`));
  const first = surfaces[0];
  const base = first && english(first) ? lemma(first) : null;
  if (base && englishLexicon().verbs.has(base)) {
    if (base === first) terms.add("^verb");
    else if (first!.endsWith("ing")) terms.add("^gerund");
  }
  return [...terms];
}
