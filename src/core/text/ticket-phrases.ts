/**
 * The phrases that frame a message rather than say something, in the languages tickets come in:
 * closings and sign-offs ("Kind regards", "Viele Grüße", "Cordialement", "谢谢"), greetings ("Hi
 * Sam,", "Hallo zusammen,", "Bonjour Claire,", "李女士您好"), device footers ("Sent from my
 * iPhone", "Enviado desde mi iPhone", "发自我的iPhone") and the headers of a quoted reply
 * ("-----Original Message-----", "From: … Sent: …", "On … wrote:"). ticket-clean.ts cuts a message
 * at them and reads the names they carry.
 */

/**
 * A table phrase as a case-insensitive pattern (spaces match any whitespace, or none). Written out
 * by hand because the `i` flag would also make `\p{Lu}` match lower case, and a signature is told
 * from ordinary words by its capitals.
 */
export function caseless(phrases: readonly string[]): string {
  // Character classes ("[oa]") and escapes ("\\p{L}", "\\.") are copied as written; other letters get both cases.
  return phrases
    .join("|")
    .replace(/\[[^\]]*\]|\\p\{[^}]*\}|\\.|\p{L}/gu, (c) =>
      c.length > 1 || c.toUpperCase() === c || c.toUpperCase().length > 1 ? c : `[${c}${c.toUpperCase()}]`,
    )
    .replaceAll(" ", "\\s*");
}

/** Closings that end a text however it is punctuated: nobody asks about "Kind regards" at the end of a question. */
export const CLOSINGS = caseless([
  "(?:kind|best|warm|warmest|many) regards",
  "with (?:kind |best )?regards",
  "yours (?:faithfully|sincerely|truly)",
  "sincerely yours",
  // German, also as written without ß or ü
  "mit (?:freundlichen|besten|herzlichen|lieben) gr(?:ü|ue)(?:ß|ss)en",
  "mit freundlichem gru(?:ß|ss)",
  "(?:viele|beste|liebe|herzliche|freundliche|schöne) gr(?:ü|ue)(?:ß|ss)e",
  "mfg",
  // French, Spanish, Portuguese, Italian, Dutch
  "(?:bien )?cordialement",
  "bien à (?:vous|toi)",
  "salutations distinguées",
  "(?:un )?saludos? cordiales",
  "atentamente",
  "atenciosamente",
  "cordiali saluti",
  "distinti saluti",
  "met vriendelijke groet(?:en)?",
  "hartelijke groet(?:en)?",
  // Nordic, Polish, Czech, Romanian, Turkish, Greek, Russian, Ukrainian, Arabic, Hebrew, Thai, Korean, Japanese
  "med venlig(?:e|st)? hilsen?|venlig hilsen|med vennlig hilsen|vennlig hilsen|med vänliga hälsningar|vänliga hälsningar|ystävällisin terveisin",
  "z (?:wyrazami szacunku|poważaniem)|pozdrawiam(?: serdecznie)?|s pozdravem|s přáním hezkého dne|cu (?:stimă|respect)|toate cele bune",
  "saygılarımla|iyi çalışmalar|με εκτίμηση|φιλικά",
  "с уважением|с наилучшими пожеланиями|з повагою|мир вам",
  "مع (?:خالص )?(?:التحية|التحيات|الشكر)|مع أطيب التحيات|تحياتي|وتفضلوا بقبول فائق الاحترام",
  "בברכה|בכבוד רב|ขอแสดงความนับถือ|ด้วยความเคารพ|감사합니다|고맙습니다|よろしくお願い(?:いた)?します",
  "此致 敬礼",
  "祝好",
  "祝(?:您|你)?(?:生活愉快|工作顺利|一切顺利)",
]);

/** Sign-offs that are also ordinary words ("thanks", "best", "cheers"): a sign-off only where a sentence has ended. */
export const SIGN_OFFS = caseless([
  "many thanks",
  "thanks (?:a lot|again)",
  "thank you(?: (?:so|very) much)?(?: for (?:your|the) (?:help|time|support|reply))?",
  "thanks?(?: (?:so|very) much)?(?: (?:in advance|for (?:your|the) (?:help|time|support|reply)))?",
  "thx|ty|tia|cheers|best(?: wishes)?|all the best|regards|sincerely|greetings|br",
  "(?:much |greatly )?appreciated|appreciate it",
  "danke(?: schön| sehr| im voraus)?|vielen dank(?: im voraus)?|gr(?:ü|ue)(?:ß|ss)e|gru(?:ß|ss)|lg|vg",
  "merci(?: d'avance| beaucoup| bien)?|(?:bonne|belle) (?:fin de )?(?:journée|soirée|semaine)|à bientôt",
  "(?:un )?saludos?|gracias(?: de antemano)?|muchas gracias|un abrazo",
  "obrigad[oa]|abraços|att\\.?|até (?:mais|logo)",
  "grazie(?: mille)?|un saluto|saluti",
  "groet(?:en|jes)?|bedankt|dank je(?: wel)?|dank u(?: wel)?",
  "tak(?: for hjælpen| på forhånd)?|hilsen|dziękuję|děkuji|mulțumesc|teşekkürler|teşekkür ederim|ευχαριστώ",
  "спасибо|заранее спасибо|дякую|و?شكرا(?:ً)?(?: لكم| جزيلا(?:ً)?)?|תודה(?: רבה| מראש)?|ขอบ(?:พระ)?คุณ(?:ค่ะ|ครับ)?",
  "धन्यवाद|सादर|भवदीय|भवदीया|ধন্যবাদ(?:ান্তে)?|শুভেচ্ছান্তে|நன்றி|அன்புடன்|شکریہ|والسلام|با (?:تشکر|سپاس)|ممنون(?:م)?|سپاسگزارم|ارادتمند",
  "谢谢(?:您|你|啦)?|謝謝(?:您|你)?|多谢|多謝|感谢|感謝|麻烦(?:你|您)?了|辛苦(?:你|您)?了|此致|敬上|謹上|谨上",
]);

/** A device's footer, in the common mail apps and languages: it ends the message wherever it stands. */
export const DEVICE_FOOTER =
  /(?:sent from (?:my |mail for |outlook for |yahoo mail (?:on|for) )?[\p{L}\p{N} ]{2,30}|sent via [\p{L}\p{N} ]{2,30}|get outlook for \p{L}+|von meinem [\p{L}\p{N} ]{2,30} gesendet|gesendet von (?:meinem )?[\p{L}\p{N} ]{2,30}|envoyé (?:de|depuis) mon [\p{L}\p{N} ]{2,30}|enviado (?:desde|do|de) (?:mi|meu|o meu) [\p{L}\p{N} ]{2,30}|inviato da (?:il mio )?[\p{L}\p{N} ]{2,30}|verzonden (?:vanaf|met|van) (?:mijn )?[\p{L}\p{N} ]{2,30}|发自我的\S{2,20}|从我的\S{2,20}发送|\S{2,20}から送信)[.!。]?\s*$/iu;

/** The start of a quoted earlier message: everything from it on is someone else's words. */
export const QUOTE_HEADER = new RegExp(
  String.raw`^(?:.{3,200}<[^<>\s@]+@[^<>\s]+>.{0,60}:|on .{3,200} wrote:|am .{3,200} schrieb .{1,200}:|le .{3,200} a écrit\s?:|el .{3,200} escribió:|-{2,}\s*(?:${caseless(
    [
      "original message|ursprüngliche nachricht|message d'origine|mensaje original|mensagem original|messaggio originale|oorspronkelijk bericht|forwarded message|weitergeleitete nachricht",
    ],
  )})\s*-{2,}|_{10,}|(?:${caseless(["from|von|de|da|van"])})\s*:\s*.+(?:<[^>]+>|@).*|发件人[:：].*|-{5,}\s*原始邮件\s*-{5,})\s*$`,
  "iu",
);

/** A name as signed or greeted: capitalised words ("J. Smith", "Tom Becker, Acme GmbH") or two to four Chinese characters (张伟). */
export const NAME_WORD = String.raw`(?:\p{Lu}[\p{L}'’.&-]*|\p{Script=Han}{2,4})`;
export const SIGNATURE = String.raw`${NAME_WORD}(?:[\s,|/–—-]+${NAME_WORD}){0,5}`;

/** Words that greet: the opening of a message, before whom it addresses. */
export const GREETING_WORDS = caseless([
  "hi|hello|hey|dear|greetings|good (?:morning|afternoon|evening)|hallo|moin|servus|guten (?:tag|morgen|abend)|sehr geehrte[rs]?|liebe[rs]?",
  "bonjour|bonsoir|salut|cher|chère|madame|monsieur|hola|buen[oa]s (?:días|tardes|noches)|estimad[oa]s?|olá|oi|bom dia|boa tarde|prezad[oa]|ciao|buongiorno|buonasera|salve|gentile|hoi|hallo|beste|goedemiddag|goedemorgen",
  "hej|kære|dzień dobry|szanown[aiy]|dobrý den|vážen[áý]|bună ziua|stimate|stimată|merhaba|sayın|γεια σας|αγαπητ[έήοό]",
  "здравствуйте|добрый день|уважаем(?:ый|ая)|добрий день|вітаю|шановн(?:ий|а)|السلام عليكم|مرحبا|عزيزي|عزيزتي|שלום|สวัสดี(?:ค่ะ|ครับ)?|안녕하세요",
]);

/** A line that only greets: "Hi Sam,", "Hallo zusammen,", "Sehr geehrte Damen und Herren,", "Guten Tag Frau Schneider,", "李女士您好，". */
export const GREETING_LINE = new RegExp(
  String.raw`^(?:(?:${GREETING_WORDS})(?:,?\s+(?:[\p{L}.'’-]+)){0,4}\s*[,!:;.]*|\p{Script=Han}{1,4}(?:您好|你好)[,，!！:：]*|\p{Script=Han}{1,4}(?:\s?\p{Script=Han}{1,3})?(?:様|さま|さん|殿)[、,，]*|(?:您好|你好|大家好|哈喽)[,，!！:：。]*)$`,
  "u",
);
