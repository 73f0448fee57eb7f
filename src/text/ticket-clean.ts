/**
 * What a support ticket asks, without the pleasantries and without who asked: the question text
 * the pipeline compares with FAQs and may store as a production variant (seed 002: variants skip
 * review, so nothing personal may reach one). Rules, in order:
 * 1. lines: drop quoted replies (lines starting with ">", everything after "On … wrote:"),
 *    everything from a sign-off line ("Thanks," "Best regards, Tom", "Viele Grüße", "MfG Peter",
 *    "谢谢！张伟", "Sent from my iPhone", "-- " …) to the end, lines holding nothing but contact
 *    details ("Tel: +49 30 1234567"), and a name alone on the last lines after the question;
 * 2. contact details and ticket references in what is left become placeholders, so the sentence
 *    around them survives: "[email]", "[phone]", "[ticket]";
 * 3. the front of the text, repeatedly: a greeting ("Hi team,", "Dear Support Team,", 您好), a
 *    pleasantry ("Hope you're well."), a self-introduction ("my name is Sarah and", 我是小王，) and
 *    a ticket reference ("Regarding ticket #4711,");
 * 4. the end of the text: a sign-off after the last sentence with whatever signature follows it
 *    ("… refund? Thanks, Ann", "? Best regards, Tom Becker, Acme GmbH", 谢谢！张伟), a closing
 *    that is never content even without a full stop before it ("… password Kind regards Ann"), and
 *    contact details after the last sentence;
 * 5. the subject (without "Re:", ticket references and a name after a dash) only when the body
 *    names no topic of its own: "how long does it take?" + "Refund" → "how long does it take (Refund)?".
 * A name is removed only where it signs or greets: in a greeting, a self-introduction, after a
 * sign-off at the end, or alone on the last line(s). "How do I add Ann Smith as a team member?" is
 * content and stays.
 */
import { normalizeText } from "./normalize";

/** Longest question kept (the rest is cut): a ticket is not an essay. */
export const MAX_TICKET_QUESTION_CHARS = 1000;

/**
 * A table phrase as a case-insensitive pattern (spaces match any whitespace, or none). Written out
 * by hand because the `i` flag would also make `\p{Lu}` match lower case, and a signature is told
 * from ordinary words by its capitals.
 */
function caseless(phrases: readonly string[]): string {
  return phrases
    .join("|")
    .replace(/\p{L}/gu, (c) => (c.toUpperCase() === c || c.toUpperCase().length > 1 ? c : `[${c}${c.toUpperCase()}]`))
    .replaceAll(" ", "\\s*");
}

/** Closings that end a text however it is punctuated: nobody asks about "Kind regards" at the end of a question. */
const CLOSINGS = caseless([
  "(?:kind|best|warm|warmest|many) regards",
  "with (?:kind |best )?regards",
  "yours (?:faithfully|sincerely|truly)",
  "sincerely yours",
  // German, also as written without ß or ü
  "mit (?:freundlichen|besten|herzlichen|lieben) gr(?:ü|ue)(?:ß|ss)en",
  "mit freundlichem gru(?:ß|ss)",
  "(?:viele|beste|liebe|herzliche|freundliche|schöne) gr(?:ü|ue)(?:ß|ss)e",
  "mfg",
  "此致 敬礼",
  "祝好",
  "祝(?:您|你)?(?:生活愉快|工作顺利|一切顺利)",
]);

/** Sign-offs that are also ordinary words ("thanks", "best", "cheers"): a sign-off only where a sentence has ended. */
const SIGN_OFFS = caseless([
  "many thanks",
  "thanks (?:a lot|again)",
  "thank you(?: (?:so|very) much)?(?: for (?:your|the) (?:help|time|support|reply))?",
  "thanks?(?: (?:so|very) much)?(?: (?:in advance|for (?:your|the) (?:help|time|support|reply)))?",
  "thx|ty|tia|cheers|best(?: wishes)?|all the best|regards|sincerely|greetings|br",
  "(?:much |greatly )?appreciated|appreciate it",
  "danke(?: schön| sehr| im voraus)?|vielen dank(?: im voraus)?|gr(?:ü|ue)(?:ß|ss)e|gru(?:ß|ss)|lg|vg",
  "谢谢(?:您|你|啦)?|多谢|感谢|麻烦(?:你|您)?了|辛苦(?:你|您)?了|此致",
]);

/** A name or company as signed: capitalised words ("J. Smith", "Tom Becker, Acme GmbH") or two to four Chinese characters (张伟). */
const NAME_WORD = String.raw`(?:\p{Lu}[\p{L}'’.&-]*|\p{Script=Han}{2,4})`;
const SIGNATURE = String.raw`${NAME_WORD}(?:[\s,|/–—-]+${NAME_WORD}){0,5}`;
/** After the last sentence and a sign-off, anything without a sentence of its own signs: "? thanks, ann (acme)". */
const LOOSE_SIGNATURE = String.raw`[\p{L}\p{N}\s&.,'’|/()\[\]–—-]{0,80}`;
const AFTER_SIGN_OFF = String.raw`[\s,.!:–—-]+`;

/** A line that signs off: cut from it to the end. A closing takes anything after it; a plain "Thanks" only a name. */
const SIGN_OFF_LINE = new RegExp(
  String.raw`^(?:(?:${CLOSINGS})(?![\p{L}\p{N}]).*|(?:${SIGN_OFFS})(?:${AFTER_SIGN_OFF}${SIGNATURE})?[\s,.!]*|${caseless(["sent from my"])} .*|--)$`,
  "u",
);
/** A name (and company) alone on a line: "Ann", "Tom Becker", "Acme Ltd.", "张伟". */
const NAME_LINE = new RegExp(String.raw`^${NAME_WORD}(?:[\s,|–—-]+${NAME_WORD}){0,2}[,.]?$`, "u");
const QUOTE_HEADER = /^on .{3,200} wrote:\s*$/iu;

/** The end of the text: a sign-off after the last sentence, with whoever signed. */
const SIGN_OFF_AT_END = new RegExp(String.raw`(?<=[?.!。])\s*(?:${SIGN_OFFS}|${CLOSINGS})(?:${AFTER_SIGN_OFF}${LOOSE_SIGNATURE})?$`, "u");
/** The end of the text: a closing with no full stop before it ("… password Kind regards Ann"); then only a capitalised name may follow. */
const CLOSING_AT_END = new RegExp(String.raw`\s+(?:${CLOSINGS})(?:${AFTER_SIGN_OFF}${SIGNATURE})?[\s.!]*$`, "u");

// Contact details and ticket references. Order numbers ("order #4411") are the question's content and stay.
const EMAIL = /[\p{L}\p{N}._%+-]+@[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)+/gu;
const TICKET_REFERENCE = new RegExp(
  [
    // "[Case 123]", "[#4711]", "[INC-123]": a helpdesk's bracketed tag
    String.raw`\[\s*(?:${caseless(["ticket|case|incident|request|ref"])})?\s*[#:]?\s*[A-Z]{0,5}-?\d{2,}\s*\]`,
    // "ticket #4711", "Ticket 4711", "case no. 123", "Ticket-ID: 4711", "Vorgang 4711", "工单号 4711"
    String.raw`(?<!\p{L})(?:${caseless(["(?:support )?(?:ticket|case|incident|request|reference|ref|vorgang|anfrage)(?:(?:-| )?(?:id|no|nr|number|nummer))?"])}|工单号?)\.?\s*[:#]?\s*#?[A-Z]{0,5}-?\d{3,}(?![\p{L}\p{N}])`,
    // "INC-123", "REQ0012345", "SR-4711": reference prefixes of ServiceNow, Salesforce and the like
    String.raw`(?<![\p{L}\p{N}])(?:INC|REQ|RITM|CASE|SR|TKT|TCK|CS)-?\d{3,}(?![\p{L}\p{N}])`,
  ].join("|"),
  "gu",
);
/**
 * Anything shaped like a phone number ("+49 30 1234567", "(555) 123-4567", "138 0013 8000"); `isPhone` decides.
 * Chinese text runs into the number ("手机号是13800138000"), so only Latin letters and digits bound it.
 */
const PHONE_CANDIDATE =
  /(?<![\p{Script=Latin}\p{N}#./=-])(?:\+\d{1,3}[ .-]?)?(?:\(\d{1,5}\)[ .-]?)?\d[\d .-]{5,}\d(?![\p{Script=Latin}\p{N}])/gu;
const PLACEHOLDER = /\[(?:email|phone|ticket)\]/gu;
/** What a contact line holds besides the details: labels and separators ("Tel.: [phone] | E-mail: [email]"). */
const CONTACT_PART = String.raw`(?:[\s,;:|/()–—-]|${caseless(["tel|phone|mobile|mob|cell|fax|e-?mail|mail|telefon|handy|whatsapp"])}\.?|电话|手机|邮箱|微信|\[(?:email|phone|ticket)\])`;
const CONTACT_LINE = new RegExp(String.raw`^${CONTACT_PART}*$`, "u");
const CONTACT_AT_END = new RegExp(String.raw`(?<=[?.!。])${CONTACT_PART}*\[(?:email|phone|ticket)\]${CONTACT_PART}*$`, "u");

function isPhone(candidate: string): boolean {
  const digits = candidate.replace(/\D/g, "").length;
  if (/^[+(]/.test(candidate)) return digits >= 7; // "+49 30 1234567", "(555) 123-4567"
  if (/^1[3-9]\d{9}$/.test(candidate)) return true; // "13800138000": a Chinese mobile number
  // "138 0013 8000", "555-123-4567"; not "2026-11-04" or "04 11 2026" (8 digits), not "192.168.1.10" (dots)
  return /^\d+(?:[ -]+\d+)+$/.test(candidate) && digits >= 9;
}

/** Contact details and ticket references become placeholders, so the sentence around them still reads. */
function redact(text: string): string {
  return text
    .replace(EMAIL, "[email]")
    .replace(TICKET_REFERENCE, "[ticket]")
    .replace(PHONE_CANDIDATE, (candidate) => (isPhone(candidate) ? "[phone]" : candidate));
}

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
  // "Regarding [ticket], …", "This is about [ticket]. …": the reference says nothing the question needs
  /^(?:this is |i'm writing |i am writing )?(?:re|regarding|about|concerning|following up on|further to|as per)\s*:?\s+(?:my |your |the |our )?\[ticket\][\s:,;.–—-]*/iu,
  // "[ticket] - …", "[ticket] Why …" (a helpdesk's tag), but not "[ticket] is still open" (the sentence's subject)
  /^\[ticket\](?:\s*[:,;.–—-]+\s*|\s+(?=\p{Lu}))/u,
];

/** Words that name no topic: question words, pronouns, auxiliaries, prepositions and the vaguest verbs (English, German). */
const FUNCTION_WORDS = new Set(
  (
    "a an the this that these those it its i me my mine you your yours we us our they them their he him his she her there here " +
    "what when where why who whom whose which how whether do does did done doing is are was were be been being am " +
    "can cannot could will would shall should may might must have has had don doesn didn isn aren wasn weren won wouldn " +
    "couldn shouldn haven hasn t s ll ve re d m to of in on at for with from by about into up out off over after before " +
    "until till since and or but if so then than as not no yes just still yet again already also too very now ok okay please " +
    "long much many often soon anything something thing things way one help get got take takes took work works working " +
    "happen happens happened mean means go going need want like know tell let make fix possible wrong problem issue question " +
    "wie was wann wo warum wer welche welcher welches ich du sie wir es das der die den dem ein eine einen mein meine mir mich " +
    "ist sind war kann können muss soll wird werden habe hat haben und oder aber mit für von zu bei auf im an noch schon " +
    "jetzt lange dauert geht bitte hilfe man nicht kein"
  ).split(" "),
);
/** Chinese characters that name no topic: 怎么, 多久, 可以, 吗 … */
const FUNCTION_HAN = /[我你您他她它们的了吗呢吧啊呀请问怎么样什多久为啥能可以会要是在有这那个还和就都也不没该办到]/gu;

/** Whether the body names a topic of its own, so it can stand without the subject: "the reset link expired, what now?" does, "how long does it take?" does not. */
function namesATopic(body: string): boolean {
  const words =
    body
      .replace(PLACEHOLDER, " ")
      .toLowerCase()
      .match(/[\p{L}\p{N}]+/gu) ?? [];
  return words.some((word) =>
    /\p{Script=Han}/u.test(word) ? word.replace(FUNCTION_HAN, "").length >= 2 : !FUNCTION_WORDS.has(word) && !/^\d+$/.test(word),
  );
}

const SUBJECT_NAME = new RegExp(String.raw`(?:^|\s)[–—|-]\s*${NAME_WORD}(?:\s+${NAME_WORD}){0,2}$`, "u");

/** The subject as a topic: without "Re:"/"Fwd:"/"AW:"/"WG:", ticket references, contact details and a name after a dash. */
function cleanSubject(subject: string | undefined): string {
  let text = redact(normalizeText(subject ?? "", 200).text)
    // a bare "#4711" in a subject is the ticket's number
    .replace(/\[(?:email|phone|ticket)\]|#\d+/gu, " ");
  for (let previous = ""; previous !== text;) {
    previous = text;
    text = text.replace(/^[\s:;,.|]+/u, "").replace(/^(?:re|fwd?|fw|aw|wg|antw|sv|vs)\s*:\s*|^(?:回复|转发)\s*:\s*/iu, "");
  }
  // "Password reset - Ann Smith", "- Ann Smith" once the reference is gone: the customer's name, as helpdesks append it
  text = text.replace(SUBJECT_NAME, "");
  return text.replace(/^[\s:;,.|–—-]+|[\s:;,|–—-]+$/gu, "");
}

export function cleanTicketQuestion(subject: string | undefined, question: string): string {
  const lines: string[] = [];
  for (const rawLine of question.split(/\r\n?|\n/)) {
    const line = normalizeText(rawLine).text;
    if (QUOTE_HEADER.test(line)) break;
    if (lines.length > 0 && SIGN_OFF_LINE.test(line)) break;
    if (!line || line.startsWith(">")) continue;
    const redacted = redact(line);
    // "Tel: +49 30 1234567", "ann@acme.com": a signature's contact line
    if (redacted !== line && CONTACT_LINE.test(redacted)) continue;
    lines.push(redacted);
  }
  // A name alone on the last line(s), after a line that ends a sentence, signed the ticket: "…?\nTom Becker\nAcme GmbH".
  let end = lines.length;
  while (end > 1 && lines.length - end < 3 && NAME_LINE.test(lines[end - 1]!)) end--;
  if (end < lines.length && /[?.!。]$/u.test(lines[end - 1]!)) lines.length = end;

  let body = normalizeText(lines.join(" "), MAX_TICKET_QUESTION_CHARS).text;
  for (let previous = ""; previous !== body;) {
    previous = body;
    for (const pattern of LEADING) body = body.replace(pattern, "");
    body = body.replace(CONTACT_AT_END, "").replace(SIGN_OFF_AT_END, "").replace(CLOSING_AT_END, "").trim();
  }
  // A body that is nothing but a sign-off ("Thanks") asks nothing.
  if (SIGN_OFF_LINE.test(body)) body = "";

  const topic = cleanSubject(subject);
  if (!topic || !body) return body || topic;
  if (namesATopic(body) || body.toLowerCase().includes(topic.toLowerCase())) return body;
  // The subject in brackets before the final punctuation: the text still reads as the customer's question.
  return body.replace(/[\s?.!。]*$/u, (ending) => ` (${topic})${ending.trim()}`);
}
