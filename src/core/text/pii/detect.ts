/**
 * Every personal detail in a text, each finder by its own evidence (numbers.ts, addresses.ts,
 * people.ts, names.ts, roles.ts), merged: overlapping finds become one region, named by its longest find (a
 * self-introduction holding an e-mail address is one introduction), ties by the finders' order,
 * most specific first (a customer's number found as a phone too is a customer's number).
 */
import { addresses } from "./addresses";
import { customerCodes } from "./codes";
import { datesOfBirth } from "./dates";
import { healthDetails } from "./health";
import type { Span } from "./kinds";
import {
  cards,
  credentials,
  customerIds,
  emails,
  ibans,
  ipAddresses,
  lastDigits,
  longNumbers,
  nationalIds,
  personalUrls,
  phones,
  randomTokens,
} from "./numbers";
import { givenNames } from "./names";
import { introductions, people } from "./people";
import { roles } from "./roles";

const FINDERS: readonly ((text: string) => Span[])[] = [
  credentials,
  personalUrls,
  emails,
  randomTokens,
  cards,
  lastDigits,
  ibans,
  nationalIds,
  datesOfBirth,
  healthDetails,
  customerIds,
  ipAddresses,
  addresses,
  phones,
  longNumbers,
  customerCodes,
  people,
  givenNames,
  roles,
  introductions,
];

export function findPersonalDetails(text: string): Span[] {
  // A number is a number in any script's digits ("۰۹۱۲۳۴۵۶۷۸۹", "١٥/٠٣/١٩٨١", "২৭"): the finders read ASCII digits, one for one.
  const read = asciiDigits(text);
  const found = FINDERS.flatMap((finder, rank) => finder(read).map((span) => ({ span, rank })));
  found.sort((a, b) => a.span.start - b.span.start || b.span.end - a.span.end);
  const merged: { span: Span; rank: number; longest: number }[] = [];
  for (const { span, rank } of found) {
    const last = merged.at(-1);
    if (!last || span.start >= last.span.end) {
      merged.push({ span: { ...span }, rank, longest: span.end - span.start });
      continue;
    }
    const length = span.end - span.start;
    if (length > last.longest || (length === last.longest && rank < last.rank)) {
      last.span = { ...span, start: last.span.start, end: Math.max(last.span.end, span.end) };
      last.rank = rank;
      last.longest = length;
    } else last.span.end = Math.max(last.span.end, span.end);
  }
  return postcodesIntoAddresses(
    text,
    merged.map((m) => m.span),
  );
}

/** A code right after an address is its postal code ("…, Toronto, ON M5H 2M9"): one address, not two details. */
function postcodesIntoAddresses(text: string, spans: Span[]): Span[] {
  const out: Span[] = [];
  for (const span of spans) {
    const last = out.at(-1);
    if (
      last?.kind === "address" &&
      (span.kind === "customer_id" || span.kind === "address") &&
      /^[\s,]*$/u.test(text.slice(last.end, span.start))
    )
      last.end = span.end;
    else out.push(span);
  }
  return out;
}

/**
 * The text with every decimal digit of another script written as its ASCII digit, in the same place
 * (each such digit of the Basic Multilingual Plane is one UTF-16 unit, as its ASCII digit is): spans
 * found in it are spans of the text.
 */
export function asciiDigits(text: string): string {
  return text.replace(/(?![0-9])\p{Nd}/gu, (digit) => (digit.length === 1 ? String(digitValue(digit.codePointAt(0)!)) : digit));
}

/** A decimal digit's value: Unicode puts each script's ten digits in a run from zero, so it is the distance to its run's start. */
function digitValue(codePoint: number): number {
  let value = 0;
  while (value < 9 && /\p{Nd}/u.test(String.fromCodePoint(codePoint - value - 1))) value++;
  return value;
}
