/**
 * Dates of birth, by the word that names a birth or by a whole date too old to be an event of the
 * account. A date that is neither is the account's own ("charged twice on 3 March") and stays.
 */
import { monthNames } from "./calendar";
import type { Span } from "./kinds";

/** A date in figures or with its month in words, in the ways the common languages write one ("12 de mayo de 1985", "May 12th, 1985", "3. März 1990"). */
const DATE = String.raw`(?:\d{1,2}[./-]\d{1,2}[./-]\d{2,4}|\d{4}-\d{2}-\d{2}|\d{1,2}(?:\.|er|st|nd|rd|th)? (?:de |di )?\p{L}{3,10}\.?,? (?:de |del )?\d{4}|\p{L}{3,10}\.? \d{1,2}(?:st|nd|rd|th)?,? \d{4}|\d{4}年\d{1,2}月\d{1,2}日)`;

/**
 * Dates of birth: every date in the sentence that names a birth, a date within a few words after the
 * word ("geb. 12.05.1984"), and any whole date (day or month in words, and year) from before anyone
 * could hold an account of their own: a customer's ticket has no other reason to give the day and
 * month of 1990 ("Data urodzenia: 17 listopada 1990", "am siebten Juni 1988", "3 Ekim 2003").
 */
export function datesOfBirth(text: string): Span[] {
  const found: Span[] = oldDates(text);
  const birth =
    /\b(?:date of birth|birth ?date|born|dob|d\.o\.b\.|birthday|geburtsdatum|geboren|geb\.|fecha de nacimiento|nacid[oa]|date de naissance|né|née|data di nascita|nato|nata|data de nascimento|geboortedatum)|出生日期|生日/giu;
  const date = new RegExp(DATE, "gu");
  for (const word of text.matchAll(birth)) {
    const sentenceStart = Math.max(0, ...[...".!?。！？\n"].map((c) => text.lastIndexOf(c, word.index) + 1));
    const window = text.slice(sentenceStart, word.index + word[0].length + 60);
    for (const d of window.matchAll(date))
      found.push({ kind: "date_of_birth", start: sentenceStart + d.index, end: sentenceStart + d.index + d[0].length });
  }
  return found;
}

/** A customer is this many years old at least: a whole date further back is a birth, not an event of the account. */
const ACCOUNT_AGE = 14;
let oldDate: RegExp | null = null;

function oldDates(text: string): Span[] {
  oldDate ??= new RegExp(
    String.raw`(?<![\p{L}\p{N}])(?:(?:\d{1,2}(?:\.|er|st|nd|rd|th|º|°)?\s+(?:of\s+|de\s+|di\s+)?)?(?:${monthNames().join("|")})\.?,?\s+(?:de\s+|del\s+)?(?:\d{1,2}(?:st|nd|rd|th)?,?\s+)?(\d{4})|\d{1,2}[./-]\d{1,2}[./-](\d{4})|(\d{4})[./-]\d{1,2}[./-]\d{1,2}|(\d{4})\s?[年년]\s?\d{1,2}\s?[月월]\s?\d{1,2}\s?[日일])(?![\p{N}])`,
    "giu",
  );
  const latest = new Date().getUTCFullYear() - ACCOUNT_AGE;
  const found: Span[] = [];
  for (const m of text.matchAll(oldDate)) {
    const year = Number(m.slice(1).find(Boolean));
    if (year >= 1900 && year <= latest) found.push({ kind: "date_of_birth", start: m.index, end: m.index + m[0].length });
  }
  return found;
}
