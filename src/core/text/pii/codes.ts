/**
 * A customer's own codes, whatever their label and language: an order, claim, booking, contract or
 * tracking number names one customer's thing among hundreds of thousands, so it carries that many
 * values; a product's codes come from a short catalogue ("E-4012", "AUTH-429", "KB-1188": a word
 * and four digits at most). A code's capacity is what its characters after a lettered prefix can
 * spell (a digit 10 ways, a letter 26): 10^5 or more is a customer's ("HH-C-55012",
 * "ZAM/2025/03/1187", "XJ8T2L", "1Z 999 AA1 01 2345 6784"). What stays whatever its capacity:
 * amounts, counts and measures ("1.480,00", "48 000", "1080p"), versions, times and dates (a date
 * of birth is datesOfBirth's), an error's code after its word or in the message the customer quotes
 * ("error PAY-40312", "'RFC inválido (CFDI-40143)'"), links (links decides), and a code the
 * knowledge base itself says (redact.ts asks the tenant's vocabulary).
 */
import type { Span } from "./kinds";

/** A count joined to its noun: "30-day", "5-year", "2-step". */
const COUNTED_NOUN = /^\d+-\p{Ll}+$/u;
/** Amounts, counts, versions, times, HTTP statuses and measures with their unit ("1080p", "10GB", "24h"). */
export const NOT_A_CODE =
  /^(?:\d+(?:\.\d+){1,3}|\d{1,3}(?:[.,  ]\d{3})+(?:[.,]\d{1,2})?|\d{1,4}(?:[.,]\d{1,2})?|v?\d+(?:\.\d+)+(?:-[\p{L}\d.]+)?|\d{1,2}[:h]\d{2}|[1-5]\d\d|\d+(?:[.,]\d+)?[a-zµ%]{1,3}|[1-9]\d?0{2,})$/iu;
/** A date in figures: not a code (datesOfBirth decides whether it is someone's). */
export const DATE_IN_FIGURES = /^\d{1,4}[./-]\d{1,2}[./-]\d{1,4}\.?$/u;
/** The words an error's, a version's or a status's code follows, whole in Latin script ("Eircode" is no "code"): the product's own, not the customer's. */
const PRODUCT_CODE_BEFORE =
  /(?<![\p{Script=Latin}])(?:error|error message|code|fehler|fehlercode|fehlermeldung|erreur|message d'erreur|mensaje de error|código|codigo|errore|fout|foutcode|błąd|hata|felkod|chyba|错误代码|錯誤代碼|错误码|报错|エラー|오류|status|http|version|firmware|build|release|commit|sha|revision|rev|v)\W{0,3}$/iu;

/**
 * One token in Latin letters and digits (a code inside Chinese or Japanese text too: "订单号JP2025…"),
 * or digit-bearing groups a single space apart ("1Z 999 AA1 01 2345 6784", "5375 4411 2233 8890").
 * A token after "/" is a path's segment ("/v2/orders"), not a code.
 */
const CANDIDATE =
  /(?<![\p{Script=Latin}\p{N}[_/])(?=[\p{Script=Latin}\p{N}/._-]*\d)[\p{Script=Latin}\p{N}](?:[\p{Script=Latin}\p{N}/._-]*[\p{Script=Latin}\p{N}])?(?: (?=[\p{Script=Latin}\p{N}]*\d)[\p{Script=Latin}\p{N}]{1,6}(?![\p{Script=Latin}\p{N}/_-]|\.[\p{Script=Latin}\p{N}]))*(?![\p{Script=Latin}\p{N}\]])/gu;

/** 10^5: a code that can name a customer's thing among a hundred thousand. */
const CUSTOMER_CAPACITY = 5;

export function customerCodes(text: string): Span[] {
  const found: Span[] = [];
  for (const m of text.matchAll(CANDIDATE)) {
    // "03/11/1991.Will I …": a sentence's end typed without its space is not part of the code
    const code = m[0].replace(/\.\p{L}+$/u, "");
    if (NOT_A_CODE.test(code) || COUNTED_NOUN.test(code) || DATE_IN_FIGURES.test(code) || /^0x/i.test(code)) continue;
    if (inLink(text, m.index, code.length) || productsOwn(text, m.index, code.length)) continue;
    if (capacity(code) >= CUSTOMER_CAPACITY) found.push({ kind: "customer_id", start: m.index, end: m.index + code.length });
  }
  return found;
}

/**
 * log10 of the values a code can spell after its prefix (segments with a word's letters: "HH-",
 * "ZAM/", "GPT-", "3DS-"; or a word before the digits: "SHA256", "RTX4090"): 1 a digit, log10(26)
 * a letter. Letters mixed in among the digits are the code's own ("XJ8T2L"); a run of four or more
 * is a word, which spells nothing random ("50-seat", "3D-Secure").
 */
function capacity(code: string): number {
  const body = code.replace(/^(?:[\p{L}\p{N}]*\p{L}{2}[\p{L}\p{N}]*[/._ -])+/u, "").replace(/^\p{L}+(?=[\d/._ -]+$)/u, "");
  const digits = body.match(/\d/g)?.length ?? 0;
  const letters = (body.match(/\p{L}+/gu) ?? []).filter((run) => run.length < 4).join("").length;
  return digits + letters * Math.log10(26);
}

/**
 * The product's own code: after its word ("error PAY-40312"), or inside the message the customer
 * quotes the product saying ("sale 'RFC inválido (CFDI-40143)'", "shows “Sync failed (SF-20931)”").
 */
export function productsOwn(text: string, start: number, length: number): boolean {
  if (PRODUCT_CODE_BEFORE.test(text.slice(Math.max(0, start - 16), start))) return true;
  const before = text.slice(Math.max(0, start - 80), start);
  const after = text.slice(start + length, start + length + 80);
  return QUOTES.some(([open, close]) => {
    const opened = [...before.matchAll(open)].at(-1);
    return opened !== undefined && !close.test(before.slice(opened.index + opened[0].length)) && close.test(after);
  });
}

/**
 * Quotation marks as pairs; a straight quote opens only after a space, a bracket or a colon, and an
 * apostrophe closes only before a non-letter ("A.Ş.'de", "5'i" are no quotes).
 */
const QUOTES: readonly (readonly [RegExp, RegExp])[] = [
  [/“/gu, /”/u],
  [/„/gu, /“/u],
  [/«/gu, /»/u],
  [/「/gu, /」/u],
  [/『/gu, /』/u],
  [/(?<=^|[\s(:])"/gu, /"/u],
  [/(?<=^|[\s(:])'/gu, /'(?![\p{L}\p{N}])/u],
];

/** A token inside a link or an address (a pasted row's fields are apart by a comma or a semicolon): the link's and the e-mail's finders decide. */
function inLink(text: string, start: number, length: number): boolean {
  const from = Math.max(...[" ", "\n", ",", ";"].map((c) => text.lastIndexOf(c, start - 1))) + 1;
  const to = text.slice(start + length).search(/[\s,;]/u);
  const word = text.slice(from, to < 0 ? undefined : start + length + to);
  return /:\/\/|www\.|@/u.test(word);
}
