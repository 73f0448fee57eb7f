/**
 * Cleans untrusted text before any rule looks at it: Unicode NFKC (full-width → ASCII), lone
 * surrogates and control characters replaced by spaces, whitespace collapsed, length capped.
 * Every text function in this folder takes its input through here, so none can throw on odd input.
 */

/** Longest text the analysis rules read; the rest is cut (and callers are told). */
export const MAX_ANALYZED_CHARS = 4000;

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
/** Control and format characters, but the joiners Persian, the Indic scripts and emoji spell words with ("می‌توانم"). */
const CONTROL = /(?![\u200C\u200D])[\p{Cc}\p{Cf}]/gu;

export interface Normalized {
  text: string;
  truncated: boolean;
}

export function normalizeText(input: string, maxChars: number = MAX_ANALYZED_CHARS): Normalized {
  const truncated = input.length > maxChars;
  const text = (truncated ? input.slice(0, maxChars) : input)
    .replace(LONE_SURROGATE, " ")
    .normalize("NFKC")
    .replace(CONTROL, " ")
    .replace(/\s+/g, " ")
    .trim();
  return { text, truncated };
}

/**
 * A question's phrasing with case, width, punctuation, symbols and spacing folded: "How do I
 * reset my password?" and "how do i reset my password" are one phrasing (the ticket pipeline
 * skips a question only when its FAQ already has the phrasing).
 */
export function phrasingKey(text: string): string {
  return normalizeText(text)
    .text.toLowerCase()
    .replace(/[\p{P}\p{S}]+/gu, " ")
    .replace(/\s+/g, " ")
    .trim();
}
