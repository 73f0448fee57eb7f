/**
 * What a support ticket asks, without the pleasantries: the question text the pipeline compares
 * with FAQs and may store as a variant. Rules, in order:
 * 1. drop quoted replies: lines starting with ">" and everything after "On … wrote:";
 * 2. drop the signature: everything from a sign-off line ("Thanks," "Best regards", "Cheers",
 *    "Sent from my iPhone", "-- ", 谢谢, 此致 …) to the end;
 * 3. drop a leading greeting ("Hi team,", "Hello Anna", "Dear support,", 您好, 你好);
 * 4. prefix the subject unless the question already contains it, so "Refund" + "how long does it
 *    take?" reads "Refund: how long does it take?".
 */
import { normalizeText } from "./normalize";

/** Longest question kept (the rest is cut): a ticket is not an essay. */
export const MAX_TICKET_QUESTION_CHARS = 1000;

const GREETING = /^(?:(?:hi|hello|hey|dear|good (?:morning|afternoon|evening))(?:\s+(?:there|team|all|everyone|support|[A-Z][\w.-]*)){0,2}\s*[,!:.]?\s*|(?:您好|你好|大家好)[，,！!:：]?\s*)/iu;
const SIGN_OFF =
  /^(?:thanks?(?: you)?(?: (?:so|very) much)?|many thanks|cheers|best(?: regards| wishes)?|kind regards|regards|sincerely|br|sent from my \w+|--\s*|谢谢|多谢|此致|祝好)\s*[,.!]?\s*$/iu;
const QUOTE_HEADER = /^on .{3,200} wrote:\s*$/iu;

export function cleanTicketQuestion(subject: string | undefined, question: string): string {
  const kept: string[] = [];
  for (const rawLine of question.replace(/\r\n?/g, "\n").split("\n")) {
    const line = rawLine.trim();
    if (QUOTE_HEADER.test(line)) break;
    if (SIGN_OFF.test(line) && kept.length > 0) break;
    if (line.startsWith(">")) continue;
    kept.push(line);
  }
  let body = normalizeText(kept.join(" "), MAX_TICKET_QUESTION_CHARS).text;
  for (let previous = ""; previous !== body; ) {
    previous = body;
    body = body.replace(GREETING, "");
  }
  const cleanSubject = normalizeText(subject ?? "", 200).text.replace(/^(?:re|fwd?|aw|wg):\s*/giu, "");
  if (!cleanSubject || body.toLowerCase().includes(cleanSubject.toLowerCase())) return body;
  return body ? `${cleanSubject}: ${body}` : cleanSubject;
}
