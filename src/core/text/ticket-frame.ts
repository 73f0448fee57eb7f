/**
 * The frame of a ticket's message, told from what it says: quoted mail (kept as the question when
 * the writer only points at it: a forward, "see below"), a device footer, a salutation in any
 * language, a sign-off and the signature after it. ticket-clean.ts cleans what is left; the names
 * the frame carried are taken out wherever they recur.
 */
import { normalizeText } from "./normalize";
import type { Removal } from "./pii/kinds";
import { CASELESS_SCRIPT } from "./pii/names";
import { redactPersonalDetails } from "./pii/redact";
import {
  caseless,
  CLOSINGS,
  DEVICE_FOOTER,
  GREETING_LINE,
  GREETING_WORDS,
  NAME_WORD,
  QUOTE_HEADER,
  SIGN_OFFS,
  SIGNATURE,
} from "./ticket-phrases";

/** After the last sentence and a sign-off, anything without a sentence of its own signs: "? thanks, ann (acme)". */
export const LOOSE_SIGNATURE = String.raw`[\p{L}\p{N}\s&.,'’|/()\[\]–—-]{0,80}`;
export const AFTER_SIGN_OFF = String.raw`[\s,.!:–—-]+`;

/** A line that signs off: cut from it to the end. A closing takes anything after it; a plain "Thanks" only a name. */
export const SIGN_OFF_LINE = new RegExp(
  String.raw`^(?:(?:${CLOSINGS})(?![\p{L}\p{N}]).*|(?:${SIGN_OFFS})(?:${AFTER_SIGN_OFF}${SIGNATURE})?[\s,.!]*|--|客服(?:中心|团队)?|customer (?:service|care|support)|support(?: team)?)$`,
  "u",
);
/** A name (and company) alone on a line: "Ann", "Tom Becker", "Acme Ltd.", "张伟", "J. Alvarez", "- Tom Reyes". */
const NAME_LINE = new RegExp(String.raw`^(?:[-–—]\s*)?${NAME_WORD}(?:[\s,|–—-]+${NAME_WORD}){0,2}[,.]?$`, "u");
/** A signature line: short, no sentence, parts split by "|", "," or " - " ("Maria Chen | Procurement Lead | Northwind Ltd.", "IT Security Lead"). */
const SIGNATURE_LINE = /^(?!.*[?？])[\p{L}\p{N}&.'’() -]{2,60}(?:\s*[|,–—]\s*[\p{L}\p{N}&.'’() -]{2,60}){0,4}$/u;

/** What a contact line holds besides the details: labels and separators ("Tel.: [phone] | E-mail: [email]"). */
const CONTACT_PART = String.raw`(?:[\s,;:|/()–—-]|${caseless(["tel|t|phone|mobile|mob|cell|fax|e-?mail|mail|telefon|handy|whatsapp|tél|móvil|cellulare|celular"])}\.?|电话|手机|邮箱|微信|\[(?:email|phone|ticket|link)\]|ext\.?\s*\d+)`;
export const CONTACT_LINE = new RegExp(String.raw`^${CONTACT_PART}*$`, "u");
export const CONTACT_AT_END = new RegExp(String.raw`(?<=[?.!。])${CONTACT_PART}*\[(?:email|phone|ticket)\]${CONTACT_PART}*$`, "u");

export interface Framed {
  lines: string[];
  names: string[];
  removals: Removal[];
}

/** The message without its frame: quoted mail, device footer, greeting line, sign-off and signature; the names these carried. */
export function frame(message: string): Framed {
  const lines: string[] = [];
  const names: string[] = [];
  const removals: Removal[] = [];
  const raw = message.split(/\r\n?|\n/).map((l) => normalizeText(l).text);
  let i = 0;
  for (; i < raw.length; i++) {
    const line = raw[i]!;
    if (QUOTE_HEADER.test(line)) {
      const headers = quoteHeaders(raw, i);
      names.push(...raw.slice(i, headers).flatMap(headerNames));
      // A forward passes another person's message on: below its headers is what is asked.
      if (FORWARDED.test(line)) {
        removals.push({ kind: "quoted_mail", text: raw.slice(i, headers).join("\n") });
        i = headers - 1;
        continue;
      }
      // "On … wrote:" and its "> " lines: the writer's own text goes on below them, and when the writer asked
      // nothing above ("see below"), the quoted lines are the question.
      const quoted = REPLY_HEADER.test(line) ? quotedLines(raw, headers) : null;
      if (quoted?.lines.length) {
        const asked = lines.some((l) => /[?？]/u.test(l));
        removals.push({ kind: "quoted_mail", text: raw.slice(i, asked ? quoted.end : headers).join("\n") });
        if (!asked) {
          const inner = frame(quoted.lines.join("\n"));
          names.push(...inner.names);
          removals.push(...inner.removals);
          lines.push(...inner.lines);
        }
        i = quoted.end - 1;
        continue;
      }
      removals.push({ kind: "quoted_mail", text: raw.slice(i).join("\n") });
      break;
    }
    if (lines.length === 0 && (GREETING_LINE.test(line) || (isSalutation(line, raw.slice(i + 1)) && !SIGN_OFF_LINE.test(line)))) {
      removals.push({ kind: "greeting", text: line });
      names.push(...greetedNames(line));
      continue;
    }
    const separatesSignature = SEPARATOR_LINE.test(line) && signatureBelow(raw.slice(i + 1));
    if (lines.length > 0 && (SIGN_OFF_LINE.test(line) || DEVICE_FOOTER.test(line) || separatesSignature)) {
      const signed = raw.slice(i).filter((l) => l && !QUOTE_HEADER.test(l));
      removals.push({ kind: "signature", text: signed.join("\n") });
      names.push(...signed.flatMap(signedNames));
      break;
    }
    if (!line || line.startsWith(">")) continue;
    lines.push(line);
  }
  // Trailing lines that only sign, after a line that ends a sentence: "…?\nTom Becker\nAcme GmbH", "Finance Manager | Brightline Foods".
  let end = lines.length;
  while (end > 1 && lines.length - end < 4 && signsOnly(lines[end - 1]!)) end--;
  // A valediction in any words is a short line ending in a comma between the last sentence and the name: "Sorry for the trouble,\nJessica Moore\nOrder Support".
  if (end < lines.length && end > 1 && isValediction(lines[end - 1]!) && ENDS_SENTENCE.test(lines[end - 2]!)) end--;
  if (end < lines.length && ENDS_SENTENCE.test(lines[end - 1]!)) {
    const signed = lines.splice(end);
    removals.push({ kind: "signature", text: signed.join("\n") });
    names.push(...signed.flatMap(signedNames));
  }
  const last = lines.length - 1;
  const footer = last >= 0 ? (DEVICE_FOOTER.exec(lines[last]!) ?? (last > 0 ? DEVICE_LINE.exec(lines[last]!) : null)) : null;
  if (footer) {
    removals.push({ kind: "device_signoff", text: footer[0].trim() });
    lines[last] = lines[last]!.slice(0, footer.index).trim();
  }
  return { lines: lines.filter(Boolean), names, removals };
}

/**
 * A device footer in any language: the message's last line, a few words that name the phone or mail app it was sent
 * from and end no sentence ("Sendt fra min iPhone", "أُرسلت من iPhone الخاص بي", "ส่งจาก iPhone ของฉัน").
 */
const DEVICE_LINE =
  /^(?=(?:\S+\s+){0,5}\S+$)(?=.*(?<![\p{L}])(?:iPhone|iPad|Android|Galaxy|Samsung|Huawei|Xiaomi|Pixel|Outlook|Gmail|BlackBerry)(?![\p{L}]))[^.?!。？！]*$/u;
const ENDS_SENTENCE = /[?.!。？！:)]$/u;

/** A line of dashes or rules ("-- ", "——", "――――――", "______"): what is below it may be a signature. */
const SEPARATOR_LINE = /^(?:[-–—―_=~*·•]\s*){2,}$/u;
/** Lines that only sign: a few, none a sentence or a list item (steps below a rule are the question's). */
function signatureBelow(rest: readonly string[]): boolean {
  const lines = rest.filter((l) => l.trim());
  return lines.length > 0 && lines.length <= 8 && !lines.some((l) => /[.!?。！？]$|^\s*(?:\d+[.)]|[-*•])\s/u.test(l) || /[?？]/u.test(l));
}

/** A forward's marker line: what follows its headers is another person's message, passed on. */
const FORWARDED =
  /forwarded message|weitergeleitete nachricht|message transféré|mensaje reenviado|messaggio inoltrato|mensagem encaminhada|doorgestuurd bericht|begin forwarded message|转发的邮件|轉寄的郵件/iu;
/** A mail header line inside quoted or forwarded mail: "From: Grace O'Connell <grace@…>", "Date: …", "发件人：…". */
const HEADER_LINE =
  /^(?:from|to|cc|bcc|date|sent|subject|von|an|datum|gesendet|betreff|de|à|a|para|da|envoyé|objet|asunto|enviado|fecha|oggetto|inviato|data|assunto|van|aan|verzonden|onderwerp|发件人|收件人|日期|主题|發件人|寄件者|收件者|主旨)\s*[:：]/iu;

/**
 * The header of a reply's quote ("On Wed, 5 Mar 2025, Henrik … wrote:", "Le jeu. 6 févr. 2025 à 18:20, … a écrit :"), in
 * any language when it names the sender's address ("Em qua., 5 de jun. de 2024 às 14:03, Ana <ana@…> escreveu:").
 */
const REPLY_HEADER =
  /^(?:(?:on|am|le|el|il|em|op)\s.{3,200}(?:wrote|schrieb|a écrit|escribió|ha scritto|escreveu|schreef)\s?.{0,200}|.{3,200}<[^<>\s@]+@[^<>\s]+>.{0,60}):\s*$/iu;

/** The "> " lines from `start` (blank lines between them too), without their first mark, and where they end. */
function quotedLines(raw: readonly string[], start: number): { lines: string[]; end: number } {
  const lines: string[] = [];
  let end = start;
  for (; end < raw.length && (raw[end]!.startsWith(">") || !raw[end]!.trim()); end++)
    // One level of marks: a quote inside the quote keeps its own, for the inner frame to read.
    if (raw[end]!.trim()) lines.push(raw[end]!.replace(/^>\s?/u, "").trim());
  return { lines: lines.filter(Boolean), end };
}

/** Where the headers after a quote's marker line end: the first line that is not a header (a blank line ends them too). */
function quoteHeaders(raw: readonly string[], marker: number): number {
  let i = marker + 1;
  while (i < raw.length && (HEADER_LINE.test(raw[i]!) || (i === marker + 1 && !raw[i]!.trim()))) i++;
  return i;
}

/** The person a header names: "From: Grace O'Connell <grace@eircom.net>" → Grace O'Connell; "On Tue, … Liam Byrne <…> wrote:" → Liam Byrne. */
function headerNames(line: string): string[] {
  const named =
    /^(?:(?:from|to|cc|von|an|de|à|a|para|da|van|aan)\s*:|on .*?,\s*(?:\d{4}\s*(?:at\s*[\d:]+\s*)?(?:[ap]m\s*)?,?)?)\s*["']?([\p{Lu}][\p{L}'’. -]{1,60}?)["']?\s*(?:<|\[mailto:)/iu.exec(
      line,
    );
  return named ? [named[1]!.trim()] : [];
}

/**
 * A salutation in any language: the first line, a few words with no number, ending in a comma (or a
 * colon after a greeting word), with the message below it: "Dzień dobry Pani Katarzyno,", "您好，刘先生：".
 */
function isSalutation(line: string, rest: readonly string[]): boolean {
  if (!rest.some((l) => l.trim()) || /\d/u.test(line) || line.split(/\s+/).length > 5) return false;
  return /[,，،]$/u.test(line) || (/[:：]$/u.test(line) && new RegExp(String.raw`^(?:${GREETING_WORDS})|您好|你好`, "u").test(line));
}
const isValediction = (line: string) => /,$/u.test(line) && line.split(/\s+/).length <= 6;

const signsOnly = (line: string) =>
  NAME_LINE.test(line) ||
  CONTACT_LINE.test(redactPersonalDetails(line).text) ||
  (SIGNATURE_LINE.test(line) && !/[.!?]$/.test(line) && line.split(/\s+/).length <= 10);

/** Words a greeting addresses that are no one's name: titles and collectives ("Pani", "Herr", "Team", "Zusammen"). */
const TITLE_WORD =
  /^(?:Team|Support|Damen|Herren|Madame|Monsieur|Mesdames|Messieurs|Sir|Madam|All|Everyone|There|Zusammen|Tous|Todos|Pani|Pan|Panie|Państwo|Herr|Frau|Mr|Mrs|Ms|Miss|Dr|Señor|Señora|Sr|Sra|Signor|Signora|Sig|Senhor|Senhora|Meneer|Mevrouw|Dhr|Mevr|Heer|Encik|Cik|Puan|Tuan|Cikgu|Bapak|Pak|Ibu|Bu|Sdr|Sdri|Bey|Hanım)\.?$/u;

/** Names a greeting addresses: "Hi Sam," → Sam; "Guten Tag Frau Schneider," → Schneider; "李女士您好" → 李; "山田様" → 山田. */
function greetedNames(line: string): string[] {
  const honored = /^(\p{Script=Han}{1,4}(?:\s?\p{Script=Han}{1,3})?)(?:様|さま|さん|殿)/u.exec(line);
  if (honored) return [honored[1]!];
  const han = /^(\p{Script=Han})(?:女士|先生|小姐|老师)?(?:您好|你好)/u.exec(line);
  if (han) return [han[1]!.length === 1 ? line.slice(0, line.search(/您好|你好/u)) : han[1]!];
  const words = line.match(/\p{Lu}[\p{L}'’-]+/gu) ?? [];
  if (words.length > 0 || !CASELESS.test(line)) return words.slice(1).filter((w) => !TITLE_WORD.test(w));
  // A script without capitals ("שלום יעל,", "आदरणीय सुनीता जी,", "เรียน คุณพิมพ์ชนก"): whom the greeting addresses is what follows its words, less titles.
  return caselessName(line.replace(new RegExp(String.raw`^(?:(?:${GREETING_WORDS}|${CASELESS_GREETINGS})[\s,،]*)+`, "u"), ""));
}

const CASELESS = new RegExp(`[${CASELESS_SCRIPT}]`, "u");
/** Greetings in those scripts that GREETING_WORDS does not hold (it opens with the common ones). */
const CASELESS_GREETINGS = String.raw`(?:وعليكم السلام|ورحمة الله وبركاته|أهلاً|أهلا|مساء الخير|صباح الخير|سلام|با سلام|درود|السلام علیکم|היי|בוקר טוב|ערב טוב|לכבוד|नमस्ते|नमस्कार|आदरणीय|प्रिय|নমস্কার|প্রিয়|আসসালামু আলাইকুম|வணக்கம்|அன்புள்ள|เรียน|สวัสดี(?:ค่ะ|ครับ)?)(?:[\s,،]+|$)`;
/** Titles and honorifics in those scripts, before or after a name: "الأستاذ", "جناب", "מר", "जी", "শ্রী", "திரு", "คุณ" (written onto the name). */
const CASELESS_TITLE =
  /^(?:ال)?(?:أستاذ|أستاذة|استاذ|سيد|سيدة|أخ|أخت|أخي|أختي|عزيزي|عزيزتي|دكتور|دكتورة|محترم|محترمة|كريم|كريمة|فاضل|فاضلة|عميل|عميلة)$|^(?:جناب|آقای|خانم|سرکار|عزیز|گرامی|محترمہ|صاحب|صاحبہ|מר|גב'|גברת|ד"ר|יקר|יקרה|לקוח|לקוחה|जी|श्री|श्रीमती|सुश्री|महोदय|महोदया|डॉ\.?|জনাব|শ্রী|শ্রীমতী|সাহেব|திரு|திருமதி|செல்வி|님|고객님)$/u;
/** Words of a team or department that signs, in those scripts ("संपर्क केंद्र", "فريق الدعم", "מוקד שירות לקוחות"): no one's name. */
const CASELESS_TEAM =
  /^(?:केंद्र|केन्द्र|सेवा|सहायता|टीम|विभाग|ग्राहक|فريق|خدمة|العملاء|الدعم|قسم|مركز|دعم|پشتیبانی|خدمات|مشتریان|تیم|واحد|ٹیم|سروس|מוקד|שירות|לקוחות|צוות|מחלקת|תמיכה|সেবা|গ্রাহক|টিম|বিভাগ|சேவை|குழு|வாடிக்கையாளர்|ทีม\p{Script=Thai}*|ฝ่าย\p{Script=Thai}*|ศูนย์\p{Script=Thai}*)$/u;
const THAI_TITLE = /^(?:คุณ|นางสาว|นาย|นาง|ด\.ช\.|ด\.ญ\.)(?=\p{Script=Thai})/u;

/** The name a few words in a script without capitals hold: those words less titles; none where more than three words are left (a sentence, not a name) or one names a team. */
function caselessName(words: string): string[] {
  const name = words
    .replace(/[\s,،.!:：]+$/u, "")
    .split(/\s+/u)
    .filter((w) => w && !CASELESS_TITLE.test(w))
    .map((w) => w.replace(THAI_TITLE, ""));
  return name.length > 0 && name.length <= 3 && name.every((w) => CASELESS.test(w) && !/\p{N}/u.test(w) && !CASELESS_TEAM.test(w))
    ? [name.join(" ")]
    : [];
}

/** Names in a signature or sign-off: capitalised words and Chinese names, not the closing's own words. */
export function signedNames(line: string): string[] {
  const rest = line.replace(new RegExp(String.raw`^(?:${CLOSINGS}|${SIGN_OFFS})[\s,.!:–—-]*`, "u"), "");
  // A line of its own in a script without capitals ("יעל", "सुनीता शर्मा", "ฝน") is the name; not a sign-off's rest ("תודה מראש").
  if (rest === line && CASELESS.test(line) && !/\p{Lu}/u.test(line)) return caselessName(line);
  if (rest === line && !NAME_LINE.test(line)) return [];
  const han = rest.match(/\p{Script=Han}{2,3}$/u);
  if (han && !/客服|团队|中心/u.test(han[0])) return [han[0]];
  // A word before a colon labels what follows ("Mandatsreferenz: MR-0093321"): it names no one.
  // "Reelhouse Support", "Customer Care Team": a team signs, and the product's name with it is no one's.
  // A part of the line that holds a team's word is the team's whole name ("Efua Owusu, Mobile Money Support"): none of its words is a person.
  const parts = rest.split(/\s*[,|–—]\s*|\s+-\s+/u).filter((part) => !TEAM_WORD.test(part));
  return parts.flatMap((part) => part.match(/\p{Lu}[\p{L}'’-]+(?:\s+\p{Lu}[\p{L}'’-]+)?(?![\p{L}'’-])(?!\s*:)/gu) ?? []);
}

/** Words of a team or department that signs, in the common languages ("Alpenstrom Kundenservice", "Dienst Toeslagen", "Layanan Pelanggan"). */
const TEAM_WORD = new RegExp(
  String.raw`(?:^|\s)(?:Support|Team|Customer|Service|Care|Help|Desk|Helpdesk|Kundenservice|Kundendienst|Kundenbetreuung|Kundensupport|Serviceteam|Équipe|Assistance|Atención|Cliente|Clientes|Servizio|Assistenza|Atendimento|Suporte|Soporte|Klantenservice|Klantendienst|Dienst|Layanan|Pelanggan|Obsługa|Zespół|Podpora|Asiakaspalvelu|Kundeservice|Kundtjänst|Kundeservicen|Destek|Служба|Поддержка|Підтримка)(?:\s|$)`,
  "u",
);
