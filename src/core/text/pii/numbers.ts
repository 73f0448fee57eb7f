/**
 * Personal details that are numbers or codes, each told by its own check rather than its shape
 * alone: payment cards by Luhn, IBANs by their mod-97 check (ibantools), phone numbers by
 * libphonenumber's metadata for the country the number would belong to, Chinese ID numbers and
 * Spanish DNIs by their check characters. Labels ("password:", "order no.") carry what has no
 * check of its own. Each finder returns spans; detect.ts decides between overlapping ones (dates of
 * birth: dates.ts).
 */
import { electronicFormatIBAN, isValidIBAN } from "ibantools";
import { findNumbers, type CountryCode } from "libphonenumber-js/max";
import type { Span } from "./kinds";

/** A label's connector ("is", ":", "=", "是" …): what makes the next word its value ("password is X", not "password reset"). */
// "é" and "è" are not \w: the connectors are bounded by letters, not by \b.
const IS = String.raw`(?:\s*(?:(?<![\p{L}])(?:is|are|was|ist|est|es|é|è|era)(?![\p{L}])|=|:|：|是|为|為|は|は、|는|은)\s*)+`;
/** Between a number's label and its value: a connector, "no.", "#" or nothing ("order #4411", "Kundennummer 55012876"). */
const NUMBER_IS = String.raw`\s*(?:(?:(?<![\p{L}])(?:is|are|was|ist|est|es|é|è|no|nr|n[°º])(?![\p{L}])\.?|=|:|：|是|为|為|号|號)\s*)*`;

function spans(text: string, pattern: RegExp, kind: Span["kind"], group = 0, accept: (value: string) => boolean = () => true): Span[] {
  const found: Span[] = [];
  for (const m of text.matchAll(pattern)) {
    const value = m[group];
    if (value === undefined || !accept(value)) continue;
    const start = m.index + m[0].lastIndexOf(value);
    found.push({ kind, start, end: start + value.length });
  }
  return found;
}

/**
 * A value after a label runs to the next space or comma (Chinese runs on without spaces); sentence
 * punctuation right after it is not part of it, and it holds a letter or digit.
 */
const VALUE = String.raw`([^\s,;，。；、]*?[\p{L}\p{N}][^\s,;，。；、]*?)(?=[.,;!?，。；、)]*(?:\s|$)|[,;，。；、])`;

/** Words that name a login, in the common languages: any value after one and a connector is the customer's. */
const LOGIN_LABELS = String.raw`user ?name|login|user id|identifiant|benutzername|usuario|usuário|utilizador|nome utente|gebruikersnaam|användarnamn|brukernavn|brugernavn|käyttäjätunnus|nazwa użytkownika|uživatelské jméno|felhasználónév|kullanıcı adı|tên đăng nhập|логин|логін|имя пользователя|アカウント名|ユーザー(?:名|ID)|ログインID|아이디|사용자 ?이름`;
/** And words that name one only when a login's shape follows: a game's tag, a payment handle ("the handle is loose" is a handle). */
const LOGIN_WORDS = String.raw`${LOGIN_LABELS}|gamer ?tag|in-game id|upi id|handle|nickname|tunnus|ゲーム内ID`;

const label = (words: string) => new RegExp(String.raw`(?:${words})${IS}${VALUE}`, "giu");

/**
 * A password told in passing: "the password I'm typing is Tr0ub4dor&3", "mon mot de passe Soleil2024!".
 * Up to four words may stand between the word and its value, which must look like a password (letters
 * with a digit or a symbol, no sentence word): "password reset link" and "mot de passe oublié" do not.
 */
const PASSWORD_WORD = String.raw`\bpass(?:word|wort|wd)\b|\bpwd?\b|\bmot de passe\b|\bcontrase(?:ñ|n)a\b|\bsenha\b|\bwachtwoord\b|\bhasło\b|\bparola d'ordine\b|(?<![\p{L}])(?:şifre\p{L}*|heslo|parolă|lösenord(?:et)?|adgangskode(?:n)?|парол[ьяюе]|パスワード|비밀번호)`;
const PASSWORD_VALUE = String.raw`(?=[^\s,;，。；、]{6,})(?=[^\s,;，。；、]*\p{L})(?=[^\s,;，。；、]*[\d#@$%&*!?_+=~^][^\s,;，。；、])${VALUE}`;
const PASSWORD_IN_PASSING = new RegExp(String.raw`(?:${PASSWORD_WORD})(?:\s+[\p{L}'’]+){0,5}?(?:${IS}|\s+|\s+\()${PASSWORD_VALUE}`, "giu");

/** Passwords, logins and API keys: by label, and by the shapes keys are issued in. */
export function credentials(text: string): Span[] {
  return [
    ...spans(
      text,
      label(
        String.raw`\bpass(?:word|wort|wd)\b|\bpass(?=\s*[:=])|\bpwd\b|\bmot de passe\b|\bcontrase(?:ñ|n)a\b|\bsenha\b|\bwachtwoord\b|\bpin\b`,
      ),
      "credential",
      1,
    ),
    ...spans(text, label(String.raw`(?<![\p{L}])(?:${LOGIN_LABELS})`), "credential", 1, (v) => /[\p{L}\p{N}]{3,}/u.test(v)),
    // A login after its word with no connector ("아이디 minjun_k92", "ゲーム内ID「KenSato_0922」", "UPI ID sunita.sharma@okvertex"): one that joins letters with a digit, "_" or "."
    ...spans(
      text,
      new RegExp(String.raw`(?<![\p{L}])(?:${LOGIN_WORDS})(?:${IS}|\s+|\s*「)${VALUE}`, "giu"),
      "credential",
      1,
      (v) => /\p{L}/u.test(v) && /\p{L}[\d_.]|[\d_.]\p{L}/u.test(v) && v.length >= 4,
    ),
    // "API key is ak_9f3c…", "token: …": a labelled secret long enough to be one
    ...spans(
      text,
      label(String.raw`\b(?:api[ _-]?key|access key|secret key|client secret|secret|token|bearer|auth(?:orization)?)\b`),
      "credential",
      1,
      (v) => v.length >= 12 && /\d/.test(v) && /\p{L}/u.test(v),
    ),
    // Chinese runs the value on without a space or a connector: "密码是abc12345", "微信号liuyang_sz"; a value in Latin script
    ...spans(text, /(?:密码|密碼|口令|用户名|账号|帐号|微信号?|QQ号?)(?:是|为|為|[:：])?\s*([\x21-\x2b\x2d-\x7e]{3,})/gu, "credential", 1),
    ...spans(text, PASSWORD_IN_PASSING, "credential", 1),
    // "the 2FA code I got this morning was 448 913": a one-time code, six digits told as the code's value
    ...spans(text, /\b(?:code|otp)\b(?:\s+[\p{L}'’]+){0,6}?\s+(?:is|was|:)\s*(\d{3}[ -]\d{3}|\d{6})(?![\d-])/giu, "credential", 1),
    // "account PIN 4471": a PIN is written right after its word
    ...spans(text, /\b(?:pin|pin code|pincode|passcode|code pin|código pin)\s*(?:is|:)?\s*(\d{4,8})(?!\d)/giu, "credential", 1),
    // "admin / Pa55w0rd!": a login and its password written as a pair
    ...spans(text, /\blogin\s+(?:is\s+)?\S+\s*\/\s*(\S+?)(?=[.,;!?]*(?:\s|$))/giu, "credential", 1),
    ...spans(
      text,
      /\b(?:sk|pk|rk)_(?:live|test)_[A-Za-z0-9]{10,}|\bgh[pousr]_[A-Za-z0-9]{30,}|\bgithub_pat_\w{30,}|\bAKIA[0-9A-Z]{16}\b|\bxox[abprs]-[A-Za-z0-9-]{10,}|\beyJ[\w-]{10,}\.[\w-]{10,}\.[\w-]{10,}|\bBearer\s+[\w.~+/-]{16,}=*|\bAIza[\w-]{35}\b/gu,
      "credential",
    ),
  ];
}

/**
 * A token as issuers make keys, webhook secrets and access ids ("whsec_9fK2…", "LTAI5tQ8…",
 * "tk_prod_8Hs2…"): 16 or more letters, digits, "_" and "-", with letters and digits mixed as
 * randomly as a generated secret (at least 3.5 bits of entropy per character, and three or more
 * switches between letters and digits). Error names ("PAY_INSTALLMENTS_UNAVAILABLE") have no digits;
 * customer numbers are mostly digits.
 */
export function randomTokens(text: string): Span[] {
  return spans(text, /(?<![\p{L}\p{N}_-])[A-Za-z0-9_-]{16,}(?![\p{L}\p{N}_-])/gu, "credential", 0, looksGenerated).filter(
    (span) => !namesACommit(text, span),
  );
}

/**
 * A commit's hash is the code's own name, not a secret: hex after "commit", "sha" or "revision" ("bisected it to commit
 * 9f3c2a1b…", "fixed in revision 4e1d…"). A key that happens to be hex is not written after those words.
 */
const COMMIT_BEFORE = /\b(?:commit|commits|sha(?:-?1)?|revision|rev|changeset|cherry-pick(?:ed)?|revert(?:ed|ing)?)\s*[:#]?\s*$/iu;
const namesACommit = (text: string, span: Span) =>
  /^[0-9a-f]+$/u.test(text.slice(span.start, span.end)) && COMMIT_BEFORE.test(text.slice(Math.max(0, span.start - 24), span.start));

function looksGenerated(token: string): boolean {
  const body = token.replace(/^[a-z]{2,6}_(?:(?:live|test|prod|dev)_)?/i, "");
  const letters = body.match(/[A-Za-z]/g)?.length ?? 0;
  const digits = body.match(/\d/g)?.length ?? 0;
  const switches = body.match(/[A-Za-z]\d|\d[A-Za-z]/g)?.length ?? 0;
  return body.length >= 12 && letters >= 4 && digits >= 2 && switches >= 3 && entropy(body) >= 3.5;
}

/** Shannon entropy of a string's characters, in bits per character. */
function entropy(text: string): number {
  const counts = new Map<string, number>();
  for (const ch of text) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  return [...counts.values()].reduce((sum, n) => sum - (n / text.length) * Math.log2(n / text.length), 0);
}

/** Payment cards (13–19 digits passing Luhn), their expiry and security code. */
export function cards(text: string): Span[] {
  return [
    // A card number starts with its network's digit (2–6: Mastercard, Visa, Amex, Discover, JCB, UnionPay): "0033 1 70 36 41 12" is a phone
    ...spans(text, /(?<![\d+-])[2-6](?:[ -]?\d){12,18}(?![\d-])/gu, "card", 0, (v) => luhn(v.replace(/\D/g, ""))),
    // After the word card, a number printed as cards are (4-4-4-4, Amex 4-6-5) is the customer's card, mistyped (as an IBAN after "IBAN")
    ...spans(
      text,
      /(?:\b(?:card|carte|karte|kreditkarte|tarjeta|cartão|carta|kaart|karta)|卡号?|カード)[^\d\n]{0,20}?([2-6]\d{3}([ -])(?:\d{4}\2\d{4}\2\d{4}|\d{6}\2\d{5}))(?![\d-])/giu,
      "card",
      1,
    ),
    ...spans(
      text,
      /\b(?:exp(?:iry|ires|iration)?(?: date)?|valid (?:thru|through|until)|good thru|caduca|vence|expire|gültig bis|scadenza|有效期(?:至)?)[\s.:]*(\d{1,2}\s*\/\s*\d{2,4})/giu,
      "card",
      1,
    ),
    ...spans(
      text,
      /\b(?:cvc2?|cvv2?|csc|security code|sicherheitscode|prüfnummer|kartenprüfnummer|prüfziffer|cryptogramme|code de sécurité|código de seguridad|código de segurança|codice di sicurezza|beveiligingscode|安全码|安全碼)\s*(?:is|:)?\s*(\d{3,4})\b/giu,
      "card",
      1,
    ),
  ];
}

export function luhn(digits: string): boolean {
  if (digits.length < 13 || digits.length > 19 || /^(\d)\1+$/.test(digits)) return false;
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
    sum += d;
  }
  return sum % 10 === 0;
}

/** An IBAN by its checksum, or any IBAN's shape after the word "IBAN" (a mistyped one is still the customer's). */
export function ibans(text: string): Span[] {
  const shape = String.raw`[A-Z]{2}\d{2}(?: ?[A-Z0-9]{4}){2,7}(?: ?[A-Z0-9]{1,3})?`;
  return [
    ...spans(text, new RegExp(String.raw`\b${shape}\b`, "gu"), "iban", 0, (v) => isValidIBAN(electronicFormatIBAN(v) ?? "")),
    ...spans(text, new RegExp(String.raw`\bIBAN${NUMBER_IS}(${shape})\b`, "giu"), "iban", 1),
  ];
}

/** National ID numbers with a check (China, Spain), the shapes of the US SSN, Brazil's CPF and Italy's codice fiscale, and any labelled one. */
export function nationalIds(text: string): Span[] {
  return [
    ...spans(text, /(?<!\d)\d{17}[\dXx](?!\d)/gu, "national_id", 0, chineseIdChecks),
    ...spans(text, /\b[XYZ]?\d{7,8}[A-Z]\b/gu, "national_id", 0, spanishIdChecks),
    ...spans(text, /(?<![\d-])\d{3}-\d{2}-\d{4}(?![\d-])/gu, "national_id"),
    ...spans(text, /(?<![\d.])\d{3}\.\d{3}\.\d{3}-\d{2}(?!\d)/gu, "national_id"),
    ...spans(text, /\b[A-Z]{6}\d{2}[A-Z]\d{2}[A-Z]\d{3}[A-Z]\b/gu, "national_id"),
    // The UK's National Insurance number, spaced or not: "QQ 12 34 56 C" (HMRC's own specimen prefix included)
    ...spans(text, /\b[A-Z]{2} ?\d{2} ?\d{2} ?\d{2} ?[A-D]\b/gu, "national_id"),
    // France's NIR, spaced or not, by its key: "1 85 05 78 006 084 91"
    ...spans(text, /(?<![\d ])[12] ?\d{2} ?\d{2} ?(?:\d{2}|2[AB]) ?\d{3} ?\d{3} ?\d{2}(?![\d])/gu, "national_id", 0, nirChecks),
    // A labelled ID: its digits may be grouped by spaces ("1 85 05 78 006 084 36"); the label may stand without a connector ("Ausweisnummer T22000129")
    ...spans(
      text,
      new RegExp(
        String.raw`(?:\b(?:ssn|social security(?: number| no)?|national (?:id|insurance)(?: number| no)?|ni number|id number|passport(?: number| no)?|(?:numéro de |número de |numero di |nummer van )?(?:passeport|pasaporte|passaporte|passaporto|paspoort|reisepass)(?:nummer)?|(?:personal)?ausweis(?:nummer)?|sozialversicherungsnummer|dni|nie|nif|cpf|codice fiscale|steuer-?id|bsn|burgerservicenummer|nino|insurance number|numéro de sécurité sociale|sécurité sociale|nir|numero di previdenza)\b|身份证号?码?|身分證字?號?|护照号?码?)(?:${IS}|\s*)(?:(?:le|la|el|the|o|a|der|die|das|il)\s+)?((?:[A-Z]{0,2} ?\d[\d ]{3,22}\d(?: ?[A-Z])?|[A-Z]{1,2}\d{6,}[A-Z]?|(?=[A-Z]*\d)(?=\d*[A-Z])[A-Z0-9]{8,9}))(?![\p{L}\p{N}])`,
        "giu",
      ),
      "national_id",
      1,
    ),
  ];
}

function nirChecks(nir: string): boolean {
  const compact = nir.replace(/ /g, "");
  // Corsica's 2A and 2B count as 19 and 18 in the key.
  const digits = compact.slice(0, 13).replace(/2A/i, "19").replace(/2B/i, "18");
  return 97 - Number(BigInt(digits) % 97n) === Number(compact.slice(13));
}

function chineseIdChecks(id: string): boolean {
  const weights = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2];
  const sum = weights.reduce((s, w, i) => s + w * Number(id[i]), 0);
  return "10X98765432"[sum % 11] === id[17]!.toUpperCase();
}

function spanishIdChecks(id: string): boolean {
  const number = id.replace(/^[XYZ]/, (c) => String("XYZ".indexOf(c))).slice(0, -1);
  return number.length === 8 && "TRWAGMYFPDXBNJZSQVHLCKE"[Number(number) % 23] === id.at(-1);
}

export function ipAddresses(text: string): Span[] {
  const octet = String.raw`(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)`;
  return [
    ...spans(text, new RegExp(String.raw`(?<![\d.])${octet}(?:\.${octet}){3}(?![\d.]*\d)`, "gu"), "ip"),
    // IPv6: hex groups joined by ":", one "::" at most ("2001:db8:85a3::8a2e:370:7334"); a time ("10:30:00") has no hex letter
    ...spans(
      text,
      /(?<![\w:.])[0-9a-f]{1,4}(?::{1,2}[0-9a-f]{1,4}){2,7}(?![\w:])/giu,
      "ip",
      0,
      (v) => (v.match(/::/g)?.length ?? 0) <= 1 && /[a-f]/i.test(v),
    ),
  ];
}

/** Links that carry a secret or a person: a token, key or user in the query, or a long random path segment (a share link); a customer's own storage bucket. */
export function personalUrls(text: string): Span[] {
  return [...links(text), ...homePaths(text), ...spans(text, /\b(?:s3|gs|wasbs?|abfss?|az):\/\/[^\s"'<>)\]]+[^\s"'<>)\].,;!?]/giu, "url")];
}

/**
 * A path inside someone's home folder names their account ("/Users/maria.lopez/Documents/…", "/home/dk/.config",
 * "C:\Users\jsmith\AppData\…"): the whole path goes, to the next space (a path with spaces loses its tail words only).
 */
const homePaths = (text: string) => spans(text, /(?:(?<![\w.~])\/(?:Users|home)\/|\b[A-Z]:\\Users\\)[^\s/\\]+[^\s]*/gu, "url");

function links(text: string): Span[] {
  return spans(text, /\bhttps?:\/\/[^\s<>"')\]]+[^\s<>"')\].,;!?]/giu, "url", 0, (url) => {
    const [, query = ""] = url.split("?");
    if (/(?:^|&)(?:token|access_token|key|api_key|apikey|sig|signature|auth|code|session|sid|user|email|password|pwd|secret)=/i.test(query))
      return true;
    return url.split(/[/?#&=]/).some((part) => (part.length >= 12 && /\d/.test(part) && /[a-z]/i.test(part)) || randomShort(part));
  });
}

/**
 * A shorter segment is random when letters and digits keep alternating ("a83kd92jd": four changes); an
 * article or version id changes once or twice ("KB123456", "v2alpha1") and stays.
 */
const randomShort = (part: string) =>
  part.length >= 8 && /^[a-z\d]+$/i.test(part) && (part.match(/(?<=\d)(?=\D)|(?<=\D)(?=\d)/g)?.length ?? 0) >= 4;

const EMAIL = /[\p{L}\p{N}._%+-]+@[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)+/gu;

/** An address, or a bare "@domain" naming a customer's mail domain ("reply from an @lakeside-arch.example address"). */
export function emails(text: string): Span[] {
  return [...spans(text, EMAIL, "email"), ...spans(text, /(?<![\p{L}\p{N}._%+-])@[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)+/gu, "email")];
}

/**
 * The last digits of a card or account, as agents and customers quote them: "the card ending 4444",
 * "IBAN ending in 7654 32", "tarjeta terminada en 5556", "mit Endziffern 3000", "尾号1234".
 */
export function lastDigits(text: string): Span[] {
  return spans(
    text,
    /(?:\b(?:ending(?: in| with)?|ends in|last (?:four|4|digits)(?: digits)?(?: of (?:my |the |your )?[\p{L}]+)?|kończąc\p{L}* się na|končící na|care se termină în|slutar på|der ender på|terminad[ao] en|terminación|que termina en|se terminant par|finissant par|mit (?:den )?endziffern|endet auf|endend auf|che termina (?:con|in)|terminante (?:con|in)|terminado em|final|eindigend op|mit (?:der )?endung)\b|尾号|尾號|末尾|末[三四]碼|末[三四]位|[后後]四[位碼码]|背面末三碼|下4桁|끝자리|끝번호)[:\s]*(\d[\d ]{1,8}\d|\d{2,})(?!\d)/giu,
    "card",
    1,
  );
}

/**
 * Identifiers tied to one customer: a value after an order, invoice, account, contract, customer,
 * tracking or tax number label in the common languages, the prefixes of such documents (PO-,
 * INV-, ACC- …), carriers' tracking shapes and UUIDs. A product's own codes (error E-4012,
 * SSO-014, article KB-1188) have no such label or prefix and stay.
 */
const PLATE = String.raw`\b(?:[Pp]late|(?:[Vv]ehicle )?[Rr]egistration(?: number)?|[Kk]ennzeichen|[Ii]mmatriculation|[Mm]atrícula|[Tt]arga|[Kk]enteken)\b|车牌号?|車牌號?`;

/**
 * Licence plates without a label, in the shapes only plates have: the British ("KY19 XOP": two letters, the half-year's
 * code, three letters), the German ("HH-KL 4821", "M-TÖ 2207": district, dash, letters, space, number) and the Ukrainian or
 * Bulgarian ("ВС 4417 НК": two Cyrillic letters of those shaped like Latin ones, four digits, two more).
 */
const SHAPED_PLATES =
  /(?<![\p{L}\p{N}-])(?:[A-HJ-PR-Y][A-HJ-PR-Y](?:0[2-9]|1\d|2[0-6]|5[1-9]|6\d|7[0-6]) [A-HJ-PR-Z]{3}|[A-ZÄÖÜ]{1,3}-[A-ZÄÖÜ]{1,2} [1-9]\d{0,3}[EH]?|[АВЕІКМНОРСТХ]{2} ?\d{4} ?[АВЕІКМНОРСТХ]{2})(?![\p{L}\p{N}])/gu;
/** Postal codes in the shapes only they have: British ("RG30 2LN", "SW1A 1AA"), Canadian ("M5V 2T6") and Irish ("K67 X2P4"). */
const SHAPED_POSTCODES =
  /(?<![\p{L}\p{N}-])(?:[A-PR-UWYZ][A-HK-Y]?\d[A-Z\d]? \d[ABD-HJLNP-UW-Z]{2}|[ABCEGHJ-NPRSTVXY]\d[ABCEGHJ-NPRSTV-Z] \d[ABCEGHJ-NPRSTV-Z]\d|[AC-FHKNPRTV-Y]\d{2} [AC-FHKNPRTV-Y\d]{4})(?![\p{L}\p{N}])/gu;

export function customerIds(text: string): Span[] {
  const labels = String.raw`\b(?:order|orders|purchase order|po|invoice|account|acct|customer|client|member(?:ship)?|contract|subscription|tracking|shipment|parcel|case|reference|ref|vat|tax id|student id|bestellung|bestellnummer|auftrag|auftragsnummer|kundennummer|kunden-?nr|vertragsnummer|vertrag|rechnung|rechnungsnummer|sendungsnummer|commande|numéro client|numéro de commande|compte|client n|reçu|recibo|receipt|refund|beleg|quittung|ricevuta|facture|pedido|número de pedido|número de cliente|factura|ordine|fattura|encomenda|bestelling|factuur|klantnummer|serial|seriennummer|numéro de série|número de serie|numero di serie)(?:\s+(?:number|no|nr|id|numéro|número|numero|nummer|code))?\b|订单号?|(?:就诊|会员|會員|银行|銀行)?卡号|學號|学号|工号|工號|编号|編號|單號|单号|运单号|發票號碼|发票号码?|客户号|會員號|会员号|税号|統編|统编|退款单号`;
  const value = String.raw`(#?[A-Z]{0,4}-?\d[\dA-Z-]{3,}|[A-Z]{2}\d{8,}|\d{4,})`;
  // A code that names one booking, login or car: any letters and digits after its label ("Booking ref: QX7PLM", "plate KX21 FHD").
  const codeLabels = String.raw`\b(?:booking(?: ref(?:erence)?| code| number)?|confirmation(?: code| number)?|reservation(?: code| number)?|pnr)(?![\p{L}])|(?<![\p{L}])(?:${LOGIN_LABELS})(?![\p{L}])|车牌号?|車牌號?|用户名|用戶名`;
  return [
    ...spans(text, new RegExp(String.raw`(?:${labels})${NUMBER_IS}${value}(?![\p{L}\p{N}])`, "giu"), "customer_id", 1, (v) =>
      /\d{3,}/.test(v),
    ),
    ...spans(
      text,
      new RegExp(
        String.raw`(?:${codeLabels})(?:\s+in\s+the\s+app)?${NUMBER_IS}(?:\(|")?([A-Z0-9](?:[\w-]|\.(?=\w)){3,30})(?![\p{L}\p{N}])`,
        "giu",
      ),
      "customer_id",
      1,
      (v) => /\d/.test(v) || /^[A-Z]{5,8}$/.test(v),
    ),
    // A licence plate after its label, as plates are written: upper case, one space at most ("KX21 FHD", "B-MW 1234").
    ...spans(text, new RegExp(String.raw`(?:${PLATE})${NUMBER_IS}([A-Z0-9-]{2,4} ?[A-Z0-9]{2,4})(?![\p{L}\p{N}])`, "gu"), "customer_id", 1),
    ...spans(text, SHAPED_PLATES, "customer_id"),
    ...spans(text, SHAPED_POSTCODES, "address"),
    ...spans(
      text,
      /(?<![\p{L}\p{N}-])(?:PO|INV|ORD|ACC|CUST|CMD|PED|FT|SO|RMA|SR|CASE|TKT|INC|REQ)-?\d[\d-]{2,}(?![\p{L}\p{N}])|(?<![\p{L}\p{N}&])#[A-Z]{0,3}-?\d{4,}(?![\p{L}\p{N}])|\b1Z[0-9A-Z]{16}\b|\bSF\d{12,13}\b|\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/giu,
      "customer_id",
    ),
  ];
}

/**
 * Phone numbers in every common format, as libphonenumber reads them: with a country code, or
 * national for the countries whose languages Recall's tickets come in. A date, an amount or a
 * customer's number another finder claimed is not a phone (detect.ts keeps the earlier claim).
 */
const PHONE_COUNTRIES: readonly CountryCode[] = ["US", "GB", "DE", "FR", "ES", "IT", "NL", "BR", "PT", "CN"];

export function phones(text: string): Span[] {
  const found = new Map<string, Span>();
  for (const defaultCountry of PHONE_COUNTRIES) {
    for (const n of findNumbers(text, { defaultCountry, v2: true, leniency: "VALID" } as never) as unknown as {
      startsAt: number;
      endsAt: number;
    }[]) {
      const value = text.slice(n.startsAt, n.endsAt);
      if (looksLikeDate(value) || value.replace(/\D/g, "").length < 7) continue;
      // "(+1) 646-555-0178": the bracketed prefix is part of the number
      const start = /\(\+?\d{1,3}\)\s*$/.exec(text.slice(Math.max(0, n.startsAt - 8), n.startsAt))
        ? text.lastIndexOf("(", n.startsAt)
        : n.startsAt;
      found.set(`${start}:${n.endsAt}`, { kind: "phone", start, end: n.endsAt });
    }
  }
  // Written with its country code, a number is a phone even where the plan reserves it (UK 07700 900xxx, US 555-01xx): "+44 7700 900 077".
  for (const n of findNumbers(text, { v2: true, leniency: "POSSIBLE" } as never) as unknown as { startsAt: number; endsAt: number }[]) {
    const value = text.slice(n.startsAt, n.endsAt);
    if (value.startsWith("+") && value.replace(/\D/g, "").length >= 9)
      found.set(`${n.startsAt}:${n.endsAt}`, { kind: "phone", start: n.startsAt, end: n.endsAt });
  }
  return [...found.values()];
}

const looksLikeDate = (value: string) =>
  /^\d{1,4}[./-]\d{1,2}[./-]\d{1,4}$/.test(value.trim()) || /\b(?:19|20)\d{2}[-./]\d{2}[-./]\d{2}\b/.test(value) || /,/.test(value);

/**
 * A bare run of 8 or more digits (after up to three letters), or 6 or more after a lettered prefix
 * ("MR-0093321"), that no finder before it claimed (a phone, a card): someone's number. A
 * product's codes are shorter ("E-4012", "AUTH-429").
 */
export function longNumbers(text: string): Span[] {
  // "RF20250318007", "T22000129": letters before the digits too; not a hex code ("0x80070005")
  return spans(
    text,
    /(?<![\p{L}\p{N}.,:/-])(?:(?:[A-Z]{1,3}-?)?\d{8,}|[A-Z]{1,4}-\d{6,})[A-Z]?(?![\p{L}\p{N}.,:/-]*\d)/gu,
    "customer_id",
    0,
    (v) => !/^0x/i.test(v),
  );
}
