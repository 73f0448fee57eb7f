/**
 * A code beside a detail is a detail: in a sentence that already held one ("Booking ref [number],
 * flight on …"), a number-like code no finder claimed ("réservation K7XQ2M", "sort code 20-45-77",
 * "Commande n°FR-77120-B") and a full date ("21/05/2016") are the same person's, and go too. What
 * stays: versions ("firmware 3.1.4"), amounts and counts ("£86.40", "48.000"), short numbers and
 * years, and an error's code after its word or in the message the product showed ("error PAY-4031",
 * "错误代码 E502", "'Pagamento não aprovado – PIX-EXP-02'").
 */
import { DATE_IN_FIGURES, NOT_A_CODE, productsOwn } from "./codes";
import type { Removal } from "./kinds";
import { hasPlaceholder, PLACEHOLDER } from "./redact";

/** A token with a digit and five or more characters: codes, references, dates. */
const CODE = /(?<![\p{L}\p{N}[])(?=[\p{L}\p{N}/.-]*\d)[\p{L}\p{N}][\p{L}\p{N}/.-]{3,}[\p{L}\p{N}](?![\p{L}\p{N}\]])/gu;

/** Each sentence holding a placeholder, with the codes beside it replaced; what was replaced, by kind. */
export function codesBesideDetails(sentences: readonly string[]): { sentences: string[]; removals: Removal[] } {
  const removals: Removal[] = [];
  const cleaned = sentences.map((sentence) => {
    if (!hasPlaceholder(sentence)) return sentence;
    return sentence.replace(CODE, (code, at: number) => {
      if (NOT_A_CODE.test(code) || productsOwn(sentence, at, code.length)) return code;
      const kind = DATE_IN_FIGURES.test(code) ? "date_of_birth" : "customer_id";
      removals.push({ kind, text: code });
      return PLACEHOLDER[kind];
    });
  });
  return { sentences: cleaned, removals };
}
