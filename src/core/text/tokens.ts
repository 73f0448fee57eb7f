/**
 * A token estimate for prompt budgets, without a tokenizer: BPE tokenizers (GPT, Llama, Claude)
 * spend about one token per 4 characters of English and about one per CJK character. So:
 * CJK characters count 1 each, everything else 1 per 4 characters, rounded up. It errs high for
 * plain English and is close for code and Chinese; a budget is an upper bound, so high is safe.
 */
import { CJK_CHAR } from "./cjk";

export function estimateTokens(text: string): number {
  let cjk = 0;
  let other = 0;
  for (const ch of text) {
    if (CJK_CHAR.test(ch)) cjk++;
    else other++;
  }
  return cjk + Math.ceil(other / 4);
}
