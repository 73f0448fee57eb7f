/**
 * What a support ticket asks, without the pleasantries and without who asked: the question text
 * the pipeline compares with FAQs and may store as a production variant (seed 002: variants skip
 * review, so nothing personal may reach one). Rules, in order:
 * 1. lines: drop quoted replies (lines starting with ">", everything after "On … wrote:") and
 *    everything from a sign-off line ("Thanks," "Best regards", "Sent from my iPhone", "-- ",
 *    谢谢, 此致 …) to the end;
 * 2. the front of the text, repeatedly: a greeting ("Hi team,", "Dear Support Team,", "Hey
 *    there!", 您好), a pleasantry ("Hope you're well.", "Thanks for the quick reply!", "One more
 *    question:") and a self-introduction ("my name is Sarah and", "this is Mike from Acme.",
 *    "I'm Tom.", 我是小王，);
 * 3. the end of the text: an inline sign-off after the last sentence, with or without a name
 *    ("… refund? Thanks, Ann", "Regards, J. Smith", "Many thanks - Priya", 谢谢！, 麻烦了);
 * 4. prefix the subject unless the question already contains it, so "Refund" + "how long does it
 *    take?" reads "Refund: how long does it take?".
 */
import { normalizeText } from "./normalize";

/** Longest question kept (the rest is cut): a ticket is not an essay. */
export const MAX_TICKET_QUESTION_CHARS = 1000;

const SIGN_OFF_WORDS =
  "many thanks|thanks? you(?: (?:so|very) much)?(?: for (?:your|the) (?:help|time|support|reply))?|thanks?(?: (?:so|very) much)?(?: (?:in advance|for (?:your|the) (?:help|time|support|reply)))?|" +
  "thx|ty|cheers|best(?: regards| wishes)?|kind regards|warm regards|regards|sincerely|appreciate it|br|" +
  "谢谢(?:您|你|啦)?|多谢|麻烦(?:你|您)?了|辛苦(?:你|您)?了|感谢";
const SIGN_OFF_LINE = new RegExp(`^(?:${SIGN_OFF_WORDS}|sent from my \\w+|--\\s*|此致|祝好)\\s*[,.!]?\\s*$`, "iu");
/** A sign-off after the last sentence, optionally followed by a name: "? Thanks, Ann", "? Regards, J. Smith". */
const INLINE_SIGN_OFF = new RegExp(`(?<=[?.!])\\s*(?:${SIGN_OFF_WORDS})(?:[\\s,.!–—-]+\\p{L}[\\p{L}. '-]{0,40})?[\\s.!]*$`, "iu");
const QUOTE_HEADER = /^on .{3,200} wrote:\s*$/iu;

/** What may stand in front of the question; each is removed, and the front checked again. */
const LEADING: readonly RegExp[] = [
  // "Hi team," "Dear Support Team," "Hey there!" "Good morning," — up to three words before the punctuation
  /^(?:hi|hello|hey|dear|greetings|good (?:morning|afternoon|evening))(?:\s+[\p{L}.'-]+){0,3}?\s*[,!:;.]+\s*/iu,
  // "hi how do I …": a bare greeting before a lower-case word
  /^(?:hi|hello|hey)\s+(?=\p{Ll})/u,
  /^(?:您好|你好|大家好|哈喽)[,!:;.]*\s*/u,
  /^(?:i )?hope (?:you(?:'re| are) (?:well|doing well|having a good day)|this (?:finds|reaches) you well)[.!,]*\s*/iu,
  /^(?:thanks?|thank you) for (?:the|your) (?:quick |fast )?(?:reply|response|help|answer)[.!,]*\s*/iu,
  /^(?:one more|another|a quick|quick) question[:,-]\s*/iu,
  // self-introductions: "my name is Sarah and", "this is Mike from Acme.", "I'm Tom."
  /^(?:[Mm]y name is|[Tt]his is|[Ii]'m|[Ii] am) \p{Lu}[\p{L}.'-]*(?: \p{Lu}[\p{L}.'-]*)?(?: from [\p{L}\p{N}&.' -]{1,40}?)?(?:[.!,]+\s+|\s+and\s+)/u,
  /^我(?:是|叫)(?!.{0,3}(?:用户|客户|会员|学生|老师|新手))\p{Script=Han}{2,3}[,.!]\s*/u,
];

export function cleanTicketQuestion(subject: string | undefined, question: string): string {
  const kept: string[] = [];
  for (const rawLine of question.replace(/\r\n?/g, "\n").split("\n")) {
    const line = rawLine.trim();
    if (QUOTE_HEADER.test(line)) break;
    if (SIGN_OFF_LINE.test(line) && kept.length > 0) break;
    if (line.startsWith(">")) continue;
    kept.push(line);
  }
  let body = normalizeText(kept.join(" "), MAX_TICKET_QUESTION_CHARS).text;
  for (let previous = ""; previous !== body;) {
    previous = body;
    for (const pattern of LEADING) body = body.replace(pattern, "");
    body = body.replace(INLINE_SIGN_OFF, "").trim();
  }
  // A body that is nothing but a sign-off ("Thanks") asks nothing.
  if (SIGN_OFF_LINE.test(body)) body = "";
  const cleanSubject = normalizeText(subject ?? "", 200).text.replace(/^(?:re|fwd?|aw|wg):\s*/giu, "");
  if (!cleanSubject || body.toLowerCase().includes(cleanSubject.toLowerCase())) return body;
  return body ? `${cleanSubject}: ${body}` : cleanSubject;
}
