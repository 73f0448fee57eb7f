/**
 * Text as FTS5 sees it. Documents and queries go through the same segmentation: Latin words are
 * left for FTS5's `porter unicode61` tokenizer to lower-case and stem, CJK runs become
 * character bigrams (see cjk.ts). Queries are rebuilt from scratch as quoted terms, so no user
 * input can ever reach FTS5 as syntax.
 */
import { CJK_CHAR, cjkBigrams } from "./cjk";
import { isStopword } from "./stopwords";

/** A term longer than this is cut: nobody searches for a 200-letter word, and it bounds the query. */
const MAX_TERM_LENGTH = 64;
/** At most this many terms go into one MATCH expression. */
export const MAX_QUERY_TERMS = 32;

const SEGMENT =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]+|[\p{L}\p{N}\p{M}]+(?:[-_.'][\p{L}\p{N}\p{M}]+)*/gu;

/** Splits text into index terms: CJK bigrams and Latin/other words (codes like PO-12345 kept whole). */
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
  return segment(text).join(" ");
}

/**
 * An FTS5 MATCH expression that ORs the distinct content terms of a query, each as a quoted
 * phrase, or null when the query has no searchable term (only punctuation, emoji, stopwords…).
 */
export function ftsOrQuery(text: string): string | null {
  const terms = [...new Set(segment(text))].filter((t) => !isStopword(t)).slice(0, MAX_QUERY_TERMS);
  if (terms.length === 0) return null;
  return terms.map((term) => `"${term.replaceAll('"', '""')}"`).join(" OR ");
}
