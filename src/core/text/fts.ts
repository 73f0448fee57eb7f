/**
 * Text as FTS5 sees it. Documents and queries go through the same segmentation: Latin words are
 * left for FTS5's `porter unicode61` tokenizer to lower-case and stem, CJK runs become
 * character bigrams (see cjk.ts). Queries are rebuilt from scratch as quoted terms, so no user
 * input can ever reach FTS5 as syntax.
 */
import { CJK_CHAR, cjkBigrams } from "./cjk";
import { normalizeText } from "./normalize";

/** A term longer than this is cut: nobody searches for a 200-letter word, and it bounds the query. */
export const MAX_TERM_LENGTH = 64;
/** At most this many terms go into one MATCH expression. */
export const MAX_QUERY_TERMS = 32;

const CJK_CLASS = "[\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}\\p{Script=Hangul}]";
/** A letter, digit or mark that is not CJK: a Latin run ends where a CJK one begins (我用iPhone手机). */
const WORD_CHAR = `(?:(?!${CJK_CLASS})[\\p{L}\\p{N}\\p{M}])`;

/** CJK runs, or words of letters/digits (codes like PO-12345 and file.ts kept whole), never both in one run. */
export const SEGMENT = new RegExp(`${CJK_CLASS}+|${WORD_CHAR}+(?:[-_.']${WORD_CHAR}+)*`, "gu");

/** Splits text into index terms: CJK bigrams and Latin/other words. */
export function segment(text: string): string[] {
  const terms: string[] = [];
  for (const match of text.normalize("NFKC").toLowerCase().matchAll(SEGMENT)) {
    const run = match[0];
    if (CJK_CHAR.test(run)) terms.push(...cjkBigrams(run));
    else terms.push(run.slice(0, MAX_TERM_LENGTH));
  }
  return terms;
}

/** The text stored in an FTS5 `body` column for a document. */
export function ftsDocument(text: string): string {
  return segment(normalizeText(text, Number.POSITIVE_INFINITY).text).join(" ");
}

/** An FTS5 MATCH expression ORing the terms, each a quoted phrase; null when there is none. */
export function orMatchExpression(terms: readonly string[]): string | null {
  const distinct = [...new Set(terms)].slice(0, MAX_QUERY_TERMS);
  if (distinct.length === 0) return null;
  return distinct.map((term) => `"${term.replaceAll('"', '""')}"`).join(" OR ");
}

/** An FTS5 MATCH expression requiring every term (implicit AND), each a quoted phrase; null when there is none. */
export function allTermsExpression(terms: readonly string[]): string | null {
  const distinct = [...new Set(terms)].slice(0, MAX_QUERY_TERMS);
  if (distinct.length === 0) return null;
  return distinct.map((term) => `"${term.replaceAll('"', '""')}"`).join(" ");
}
