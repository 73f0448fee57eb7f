/**
 * What a resolved support ticket says, without who said it: the question the pipeline compares
 * with FAQs and may put live as a variant, and the agent's answer it may propose as an FAQ answer
 * (seed 002: variants skip review, so nothing personal may reach one; other customers read FAQs).
 *
 * 1. Frame (ticket-frame.ts, with the phrases of ticket-phrases.ts): a quoted earlier message
 *    ("-----Original Message-----", "On … wrote:"), a device footer ("Sent from my iPhone",
 *    "发自我的iPhone") and everything from a sign-off line on ("Thanks,", "Viele Grüße",
 *    "Cordialement") are cut; a salutation ("Hi Sam,", "Dzień dobry Pani Katarzyno,") goes;
 *    trailing lines that only sign (a name, "Maria Chen | Procurement Lead | Northwind Ltd.", a
 *    contact line) go; a forward, or a quote the writer points to, is read as the question. The
 *    names they carry are remembered.
 * 2. Personal details (src/core/text/pii): e-mail, phone numbers in every national format
 *    (libphonenumber), cards (Luhn) with expiry and CVC, IBANs (ibantools), national ID numbers,
 *    dates of birth, credentials, IP addresses, links carrying a token or a person, postal
 *    addresses, customers' order, invoice, account and tracking numbers, names after a relation
 *    or a title, companies by their legal form, and every mention of a name remembered in 1.
 *    Each becomes a placeholder ("[phone]"); a self-introduction goes whole ("I'm Ravi from
 *    Umbrella Corp and we moved …" → "We moved …"). A product's own codes (error E-4012) stay.
 * 3. The question only: a greeting, pleasantry or ticket reference at its front, a sign-off at its
 *    end; then, when a sentence asks (?), every other sentence that carried a personal detail
 *    ("My phone is [phone].") goes: the question stays whole.
 * 4. The subject (without "Re:", ticket references and a name after a dash) only when the body
 *    names no topic of its own: "how long does it take?" + "Refund" → "how long does it take (Refund)?".
 * What was removed is returned by kind with the original text (`removals`): the review desk shows
 * the kinds and may restore a piece; the original stays in the ticket row only.
 */
import { normalizeText } from "./normalize";
import { FLAGGED_KINDS, type PersonalKind, type Removal } from "./pii/kinds";
import { codesBesideDetails } from "./pii/beside";
import { hasPlaceholder, placeholders, redactPersonalDetails } from "./pii/redact";
import { AFTER_SIGN_OFF, CONTACT_AT_END, CONTACT_LINE, frame, LOOSE_SIGNATURE, SIGN_OFF_LINE, signedNames } from "./ticket-frame";
import { caseless, CLOSINGS, GREETING_WORDS, NAME_WORD, SIGN_OFFS, SIGNATURE } from "./ticket-phrases";

/** Longest question kept (the rest is cut): a ticket is not an essay. */
export const MAX_TICKET_QUESTION_CHARS = 1000;

/** The end of the text: a sign-off after the last sentence, with whoever signed. */
const SIGN_OFF_AT_END = new RegExp(
  String.raw`(?<=[?.!。？！])\s*(?:${SIGN_OFFS}|${CLOSINGS})(?:${AFTER_SIGN_OFF}(${LOOSE_SIGNATURE}))?$`,
  "u",
);
/** The end of the text: a closing with no full stop before it ("… password Kind regards Ann"); then only a capitalised name may follow. */
const CLOSING_AT_END = new RegExp(String.raw`\s+(?:${CLOSINGS})(?:${AFTER_SIGN_OFF}(${SIGNATURE}))?[\s.!]*$`, "u");
/**
 * The end of the text: a dash after its last sentence and who signed, on the same line ("… la cuenta? Gracias. — Yesenia
 * Cárdenas, Café La Esperanza, 310 555 2187", "… the new owner. — Jin-woo"): no sentence, only names and contacts.
 */
const DASH_SIGNED_AT_END = /(?<=[?.!。？！])\s*[—–―]{1,2}\s*((?:\p{Lu}|\p{Script=Han})[^?.!。？！\n]{0,80})$/u;

/** The text before a dash signature at its end, what was cut, and the name the signature opens with ("Yesenia Cárdenas"). */
function dashSignature(text: string): { before: string; removal: Removal; names: Removal[] } | null {
  const m = DASH_SIGNED_AT_END.exec(text);
  if (!m) return null;
  const opening = m[1]!.split(/\s*[,|]\s*/u)[0]!;
  const named = /^(?:\p{Lu}[\p{L}'’-]+)(?:\s+\p{Lu}[\p{L}'’-]+){0,2}$|^\p{Script=Han}{2,4}$/u.test(opening);
  return {
    before: text.slice(0, m.index),
    removal: { kind: "signature", text: m[0].trim() },
    names: named ? [{ kind: "name", text: opening }] : [],
  };
}

/** A greeting with its name at the front of a text: "Hi Lena, …", "Hola Marta, …". */
const GREETING_AT_START = new RegExp(String.raw`^(?:${GREETING_WORDS})\s+(${NAME_WORD}(?:\s+${NAME_WORD}){0,2})\s*(?:[,!:]|[–—-]\s)`, "u");

// Ticket references: the helpdesk's own numbers, never the question's content.
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

/** A cleaned ticket: what may be staged or put live, and what was taken out. */
export interface CleanTicket {
  question: string;
  answer: string;
  /** Everything removed, by kind, with the original text (for the reviewer; never stored with the FAQ). */
  removals: Removal[];
  /** Kinds a reviewer should act on beyond the FAQ (a password or card that reached the helpdesk). */
  flagged: PersonalKind[];
}

/**
 * `vocabulary`: words (lower case) the tenant's knowledge base already says; a name or company made
 * only of them is the product's ("Alexa", "Okta") and stays (features/tickets/vocabulary.ts finds them).
 */
export function cleanTicket(
  subject: string | undefined,
  question: string,
  answer = "",
  vocabulary: ReadonlySet<string> = new Set(),
): CleanTicket {
  const asked = frame(question);
  const answered = frame(answer);
  // What the frames held (a customer's number in the signature, a phone in quoted mail) is taken out where it recurs.
  const told = [
    ...[...asked.names, ...answered.names].map((text): Removal => ({ kind: "name", text })),
    ...[...asked.removals, ...answered.removals].flatMap((r) => redactPersonalDetails(r.text).removals),
  ];
  // Twice: a detail found in one field (an address in the question, a customer's number in the answer) goes from both.
  const clean = (known: readonly Removal[]) => ({
    q: cleanQuestionBody(subject, asked.lines, known, vocabulary),
    a: cleanAnswerBody(answered.lines, known, vocabulary),
  });
  const first = clean(told);
  const { q, a } = clean([...told, ...first.q.removals, ...first.a.removals].filter((r) => !FRAME_KINDS.has(r.kind) && r.kind !== "role"));
  const removals = [...asked.removals, ...q.removals, ...answered.removals, ...a.removals];
  return {
    question: q.text,
    answer: a.text,
    removals,
    flagged: [...new Set(removals.map((r) => r.kind).filter((k) => FLAGGED_KINDS.has(k)))],
  };
}

/**
 * Kinds that frame a message: they hold no detail to look for elsewhere. Nor does a role: it is a common noun ("the new
 * owner" in the answer is no reason to take "owner" out of the question).
 */
const FRAME_KINDS: ReadonlySet<PersonalKind> = new Set(["greeting", "signature", "device_signoff", "quoted_mail"]);

/** The agent's answer: a greeting at its front ("Hi Ann, yes — …") goes too; then the details. */
function cleanAnswerBody(
  lines: readonly string[],
  known: readonly Removal[],
  vocabulary: ReadonlySet<string>,
): { text: string; removals: Removal[] } {
  let text = lines.join("\n").trim();
  const removals: Removal[] = [];
  const greeted = GREETING_AT_START.exec(text);
  if (greeted) {
    removals.push({ kind: "greeting", text: greeted[0] });
    known = [...known, { kind: "name", text: greeted[1]! }];
    text = text.slice(greeted[0].length).trim();
  }
  const signed = dashSignature(text);
  if (signed) {
    removals.push(signed.removal);
    known = [...known, ...signed.names];
    text = signed.before.trim();
  }
  // "… a €10 credit instead. Regards, Ciarán at Basket.ie": a sign-off run on after the last sentence, as in the question
  const closed = SIGN_OFF_AT_END.exec(text);
  if (closed) {
    if (closed[1]) known = [...known, ...signedNames(closed[1]).map((name): Removal => ({ kind: "name", text: name }))];
    removals.push({ kind: "signature", text: closed[0].trim() });
    text = text.slice(0, closed.index).trim();
  }
  const redacted = redactPersonalDetails(text, known, vocabulary);
  return {
    text: redacted.text
      .replace(/\n{3,}/g, "\n\n")
      .trim()
      .replace(/^\p{Ll}/u, (c) => c.toUpperCase()),
    removals: [...removals, ...redacted.removals],
  };
}

/** The question alone (the webhooks check that a ticket asks something). */
export function cleanTicketQuestion(subject: string | undefined, question: string): string {
  return cleanTicket(subject, question).question;
}

function cleanQuestionBody(
  subject: string | undefined,
  lines: readonly string[],
  told: readonly Removal[],
  vocabulary: ReadonlySet<string>,
): { text: string; removals: Removal[] } {
  const names = [...told];
  const kept = lines.filter(
    (line) => !(CONTACT_LINE.test(redactPersonalDetails(line).text) && redactPersonalDetails(line).removals.length > 0),
  );
  let body = normalizeText(kept.join(" "), MAX_TICKET_QUESTION_CHARS).text.replace(TICKET_REFERENCE, "[ticket]");
  const greeted = GREETING_AT_START.exec(body);
  if (greeted) names.push({ kind: "name", text: greeted[1]! });
  const removals: Removal[] = [];
  for (let previous = ""; previous !== body;) {
    previous = body;
    for (const pattern of LEADING) body = body.replace(pattern, "");
    for (const end of [SIGN_OFF_AT_END, CLOSING_AT_END]) {
      const m = end.exec(body);
      if (!m) continue;
      if (m[1]) names.push(...signedNames(m[1]).map((text): Removal => ({ kind: "name", text })));
      removals.push({ kind: "signature", text: m[0].trim() });
      body = body.slice(0, m.index);
    }
    const signed = dashSignature(body);
    if (signed) {
      names.push(...signed.names);
      removals.push(signed.removal);
      body = signed.before;
    }
    body = body.trim();
  }
  const redacted = redactPersonalDetails(body, names, vocabulary);
  removals.push(...redacted.removals);
  const asked = keepTheQuestion(redacted.text.replace(CONTACT_AT_END, "").trim());
  removals.push(...asked.removals);
  body = asked.text;
  // A body that is nothing but a sign-off ("Thanks", "Thanks, [name]") asks nothing.
  if (SIGN_OFF_LINE.test(body.replace(placeholders(), "").trim())) body = "";
  const topic = cleanSubject(subject, vocabulary);
  if (!topic || !body) return { text: body || topic, removals };
  if (namesATopic(body) || body.toLowerCase().includes(topic.toLowerCase())) return { text: body, removals };
  // The subject in brackets before the final punctuation: the text still reads as the customer's question.
  return { text: body.replace(/[\s?.!。]*$/u, (ending) => ` (${topic})${ending.trim()}`), removals };
}

/** Sentences end at ".", "!" or "?" before a space (not inside "api.example.com" or "e.g."), or at Chinese punctuation. */
function sentencesOf(text: string): string[] {
  return text
    .split(/(?<=(?<!\b(?:e\.g|i\.e|z\.B|etc|vs|ca|Mr|Mrs|Ms|Dr|St|No|Nr))[.!?]+)\s+|(?<=[。！？]|[.!?](?=\p{Script=Han}))/u)
    .filter(Boolean);
}

/**
 * When a sentence asks, a sentence that carried personal details goes ("My phone is [phone].",
 * "我的电话是[phone]。", "Passport [id number], born [date]."): the question stays whole. One that
 * carried a single detail and says more stays, the detail replaced ("We get ERR_SYNC_409 since we
 * rotated the token [secret]."): it is the question's context. Of a sentence that goes, its clauses
 * that held no detail and no number stay ("I started at [company] as a [role], and my payslip shows
 * an emergency tax code." → "My payslip shows an emergency tax code."): they are the customer's problem.
 */
function keepTheQuestion(body: string): { text: string; removals: Removal[] } {
  const { sentences, removals } = codesBesideDetails(sentencesOf(body));
  const detailsIn = (s: string) => s.match(placeholders())?.length ?? 0;
  // What trails the last full sentence without an end of its own, holding details and little else, is a signature
  // the frame did not see ("…でしょうか。 [name] [company] 総務部 〒[number]"): Japanese and Chinese put no sign-off before it.
  const tail = sentences.at(-1) ?? "";
  const tailDetails = detailsIn(tail);
  if (sentences.length > 1 && !/[.!?。！？…]\s*$/u.test(tail) && tailDetails > 0 && !saysMoreThanItsDetails(tail, tailDetails))
    sentences.pop();
  if (!sentences.some((s) => /[?？]/u.test(s))) return { text: joinSentences(sentences), removals };
  const text = joinSentences(
    sentences.map((s) => {
      const details = detailsIn(s);
      return /[?？]/u.test(s) || details === 0 || saysMoreThanItsDetails(s, details) ? s : clausesWithoutDetails(s);
    }),
  );
  return { text, removals };
}

const CLAUSE_END = /(?<=[,，;；])\s*/u;
/** A sentence's clauses that hold no detail and say something, as a sentence of their own (or "" when none does). */
function clausesWithoutDetails(sentence: string): string {
  const clauses = sentence.split(CLAUSE_END);
  if (clauses.length < 2) return "";
  // A clause with a number in it may hold a detail nothing found ("背面三位数 456"): it goes with its sentence.
  const kept = clauses.filter((c) => !hasPlaceholder(c) && !/\p{N}/u.test(c) && namesATopic(c));
  if (kept.length === 0) return "";
  const end = /[.!。！]$/u.exec(sentence.trim())?.[0] ?? "";
  return kept
    .join(" ")
    .trim()
    .replace(/^(?:and|but|so|und|aber|et|mais|y|pero|e|ma|en|maar)\s+/iu, "")
    .replace(/[,，;；]$/u, end)
    .replace(/^\p{Ll}/u, (c) => c.toUpperCase());
}

/** Sentences as one text again: Chinese and Japanese ones run on without a space, as they were written. */
function joinSentences(sentences: readonly string[]): string {
  return sentences
    .filter(Boolean)
    .reduce((text, s) => text + (text && !/^[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u.test(s) ? " " : "") + s, "")
    .replace(/\s{2,}/gu, " ")
    .trim();
}

/** Words that only introduce a detail ("my phone number is …", "IBAN:", "电话"): they say nothing of their own. */
const DETAIL_WORDS = new Set(
  (
    "phone number mobile cell tel telephone fax email e-mail mail address iban account card cvc cvv exp expiry expires password " +
    "username user login key token ip name company id order invoice customer contract reference ssn dob birth date call reach " +
    "telefon handy nummer adresse konto kontonummer passwort kundennummer téléphone numéro adresse compte mot passe " +
    "teléfono número correo dirección cuenta contraseña telefono indirizzo conto telemóvel morada conta senha rekeningnummer"
  ).split(" "),
);
const DETAIL_HAN = /电话|電話|手机|手機|邮箱|郵箱|地址|密码|密碼|账号|帳號|微信|号码|號碼|卡号/gu;

/**
 * A sentence that still says something once its placeholders and the words introducing them are
 * gone: a product's code, or four words of its own for each detail it held ("My number is [phone]."
 * goes; "we were charged twice for the March bill ([number] on [date])" stays). A sentence dense
 * with details is someone's identification, and what a detector missed in it goes with it.
 */
function saysMoreThanItsDetails(sentence: string, details: number): boolean {
  const rest = sentence.replace(placeholders(), " ");
  if (details === 1 && /\b(?=[\p{L}_-]*\d)(?=[\p{N}_-]*\p{L})[\p{L}\p{N}_-]{3,}\b/u.test(rest)) return true;
  const words = (rest.toLowerCase().match(/[\p{L}\p{N}][\p{L}\p{N}'’-]*/gu) ?? []).flatMap((w) =>
    /\p{Script=Han}/u.test(w)
      ? (w
          .replace(DETAIL_HAN, "")
          .replace(FUNCTION_HAN, "")
          .match(/\p{Script=Han}{2}/gu) ?? [])
      : [w],
  );
  return words.filter((w) => w.length >= 2 && !FUNCTION_WORDS.has(w) && !DETAIL_WORDS.has(w) && !/^\d+$/.test(w)).length >= 4 * details;
}

/** What may stand in front of the question; each is removed, and the front checked again. */
const LEADING: readonly RegExp[] = [
  // "Hi team," "Dear Support Team," "Hey there!" "Good morning," — up to three words before the punctuation
  new RegExp(String.raw`^(?:${GREETING_WORDS})(?:\s+[\p{L}.'-]+){0,3}?\s*[,!:;.]+\s*`, "u"),
  // "hi how do I …": a bare greeting before a lower-case word
  /^(?:hi|hello|hey)\s+(?=\p{Ll})/u,
  /^(?:\p{Script=Han}{0,4}(?:您好|你好)|大家好|哈喽)[,，!！:：;.。]*\s*/u,
  /^(?:i )?hope (?:you(?:'re| are) (?:well|doing well|having a good day)|this (?:finds|reaches) you well)[.!,]*\s*/iu,
  /^(?:thanks?|thank you) for (?:the|your) (?:quick |fast )?(?:reply|response|help|answer)[.!,]*\s*/iu,
  /^(?:one more|another|a quick|quick) question[:,-]\s*/iu,
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
      .replace(placeholders(), " ")
      .toLowerCase()
      .match(/[\p{L}\p{N}]+/gu) ?? [];
  return words.some((word) =>
    /\p{Script=Han}/u.test(word) ? word.replace(FUNCTION_HAN, "").length >= 2 : !FUNCTION_WORDS.has(word) && !/^\d+$/.test(word),
  );
}

const SUBJECT_NAME = new RegExp(String.raw`(?:^|\s)[–—|-]\s*${NAME_WORD}(?:\s+${NAME_WORD}){0,2}$`, "u");

/** The subject as a topic: without "Re:"/"Fwd:"/"AW:"/"WG:", ticket references, contact details and a name after a dash. */
function cleanSubject(subject: string | undefined, vocabulary: ReadonlySet<string>): string {
  let text = redactPersonalDetails(normalizeText(subject ?? "", 200).text.replace(TICKET_REFERENCE, "[ticket]"), [], vocabulary)
    // a bare "#4711" in a subject is the ticket's number
    .text.replace(placeholders(), " ")
    .replace(/#\d+/gu, " ")
    .replace(/\s{2,}/gu, " ");
  for (let previous = ""; previous !== text;) {
    previous = text;
    text = text.replace(/^[\s:;,.|]+/u, "").replace(/^(?:re|fwd?|fw|aw|wg|antw|sv|vs)\s*:\s*|^(?:回复|转发)\s*:\s*/iu, "");
  }
  // "Password reset - Ann Smith", "- Ann Smith" once the reference is gone: the customer's name, as helpdesks append it
  text = text.replace(SUBJECT_NAME, "");
  return text.replace(/^[\s:;,.|–—-]+|[\s:;,|–—-]+$/gu, "");
}
