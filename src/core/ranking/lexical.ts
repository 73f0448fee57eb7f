/**
 * Similarity by shared words, for when vectors cannot be trusted: texts the embedder cannot
 * embed (Chinese on the English-only local model), and as a second opinion where one embedding
 * model can rate different questions about the same subject very close.
 */
import { segment } from "../text/fts";
import { ENGLISH_STOPWORDS } from "../text/stopwords";

/** Content terms of a text: FTS segmentation (CJK bigrams, Latin words), stopwords removed. */
export function lexicalTerms(text: string): string[] {
  return [...new Set(segment(text).filter((t) => !ENGLISH_STOPWORDS.has(t)))];
}

/**
 * The cosine of two sets of distinct content terms, |A∩B| / √(|A|·|B|) (Ochiai), where a CJK
 * run contributes its overlapping character bigrams. It catches near-verbatim repeats, not
 * paraphrases, and needs no calibration: it is 1 for identical term sets.
 */
export function lexicalSimilarity(a: readonly string[], b: readonly string[]): number {
  if (a.length === 0 || b.length === 0) return 0;
  const setB = new Set(b);
  let shared = 0;
  for (const term of a) if (setB.has(term)) shared++;
  return shared / Math.sqrt(a.length * b.length);
}
