/**
 * Addresses in any language, found by a word that names a street ("Road", "Caddesi", "ул.",
 * "شارع", "רחוב", "ถนน", "ngõ") beside a house number, in either order:
 *   the street word first:  "ул. Советская, д. 21", "شارع 14", "ngõ 120", "Jalan Merdeka 5", after its number "4521 شارع الأمير سلطان";
 *   the street word last:   "Bağdat Caddesi No: 245", "14, Kamiti Road", "Thereses gate 42";
 * then what completes it, part by part after commas: a flat or unit with its number ("кв. 14",
 * "דירה 7"), a district or town ("Kadıköy", "حي المزهر"). The words come from libpostal's
 * dictionaries of 57 languages (src/core/text/tables/address-terms.json, scripts/build-address-terms.mjs).
 * A street word that is also an English word ("Road", "Place", "Lot", "Top") names a street only
 * with a capital, after a house number and a name ("14, Kamiti Road"): "place 3 orders", "Top 3
 * tips" and "Handmade Bags Lot 7" are no addresses. A word only ever written as an abbreviation
 * counts with its dot, or with a capital when it has three letters or more ("ул.", "Blvd"; not
 * "exp 09/27", "Rs 4,500").
 */
import terms from "../tables/address-terms.json";
import type { Span } from "./kinds";
import { isEnglishWord } from "./names";

const STREETS = new Set(terms.streets);
const UNITS = new Set(terms.units);
const ABBREVIATIONS = new Set(terms.abbreviations);
/** The most words a street word (or unit word) has: "çevre yolu", "right of way". */
const LONGEST = Math.max(...[...STREETS, ...UNITS].map((form) => form.split(" ").length));
/** Name words before or after the street word. */
const MAX_NAME_WORDS = 3;
/** Parts after the street and its number: flat, district, town, region. */
const MAX_PARTS = 4;

interface Token {
  text: string;
  start: number;
  end: number;
  number: boolean;
}

const TOKEN = /[\p{L}\p{M}][\p{L}\p{M}'’-]*|\d{1,5}(?:[/-]\d{1,4})*(?:[\p{L}](?![\p{L}]))?/gu;
const LOWER = /^\p{Ll}/u;
const CASED = /^[\p{Lu}\p{Ll}]/u;

export function streetAddresses(text: string): Span[] {
  const tokens = [...text.matchAll(TOKEN)].map((m) => ({
    text: m[0],
    start: m.index,
    end: m.index + m[0].length,
    number: /^\d/.test(m[0]),
  }));
  /** What lies between two tokens, an abbreviation's dot left out ("ул. Советская", "Cd. 5"): a word of at most three letters. */
  const between = (a: Token, b: Token) => {
    const gap = text.slice(a.end, b.start);
    return !a.number && a.text.length <= 3 && gap.startsWith(".") ? gap.slice(1) : gap;
  };
  /** Tokens a and b belong to one address part: only spaces between them. */
  const joined = (a: Token, b: Token) => /^[ \t]+$/u.test(between(a, b));
  /** A new part of the address: a comma (Latin or Arabic) between them, on one line. */
  const nextPart = (a: Token, b: Token) => /^[ \t]*[,،][ \t]*$/u.test(between(a, b));
  const near = (a: Token, b: Token) => joined(a, b) || nextPart(a, b);
  const isName = (t: Token | undefined) => t !== undefined && !t.number && !LOWER.test(t.text);
  /** A house number, with its marker: "No: 245", "д. 21", "Nr. 5" (a word of at most three letters and a dot or colon). */
  const houseNumber = (i: number): number | null => {
    const t = tokens[i];
    // Not an amount or a version: "4,500", "2.1".
    if (t?.number) return /^[.,]\d/u.test(text.slice(t.end)) ? null : i;
    const n = tokens[i + 1];
    if (t && n?.number && t.text.length <= 3 && /^[.:][ \t]*$/u.test(text.slice(t.end, n.start))) return i + 1;
    return null;
  };
  /** The street or unit word starting at token i, as [last token, form]; null when none. */
  const wordAt = (i: number, forms: ReadonlySet<string>): [number, string] | null => {
    for (let k = Math.min(LONGEST, tokens.length - i); k >= 1; k--) {
      const run = tokens.slice(i, i + k);
      if (run.some((t) => t.number) || run.slice(1).some((t, j) => !joined(run[j]!, t))) continue;
      const form = run.map((t) => t.text.toLowerCase()).join(" ");
      if (!forms.has(form)) continue;
      const last = run.at(-1)!;
      // An abbreviation in a cased script says so by its dot, or one of three letters or more by a capital ("кв. 14", "Blvd";
      // not "exp 09/27", "Rs 4,500", "IP 203.0.113.5").
      const dotted = text[last.end] === ".";
      const marked = dotted || (form.length > 2 && !LOWER.test(run[0]!.text));
      if (ABBREVIATIONS.has(form) && CASED.test(form) && !marked) continue;
      return [i + k - 1, form];
    }
    return null;
  };

  const found: Span[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const street = wordAt(i, STREETS);
    const core = street && streetWithNumber(i, ...street);
    if (!core) continue;
    let [from, to] = core;
    // A building or plot and its number, a part before the street: "فيلا 27، شارع 14".
    const building = tokens[from - 1];
    if (building?.number && nextPart(building, tokens[from]!) && isName(tokens[from - 2]) && joined(tokens[from - 2]!, building)) from -= 2;
    for (let parts = 0; parts < MAX_PARTS; parts++) {
      const next = extendPart(to + 1, tokens[to]!);
      if (next === null) break;
      to = next;
    }
    found.push({ kind: "address", start: tokens[from]!.start, end: tokens[to]!.end });
    i = to;
  }
  return found;

  /** The street whose word spans tokens i..streetEnd, with its name and house number, as [first, last] token; null when it has no number. */
  function streetWithNumber(i: number, streetEnd: number, form: string): [number, number] | null {
    const english = form.split(" ").every((w) => isEnglishWord(w));
    // The street word first, then its name and number ("ул. Советская, д. 21", "ngõ 120 Trần Duy Hưng"): only a word that is not English leads.
    if (!english) {
      let j = streetEnd + 1;
      while (j - streetEnd <= MAX_NAME_WORDS && isName(tokens[j]) && near(tokens[j - 1]!, tokens[j]!) && houseNumber(j) === null) j++;
      const number = tokens[j] && near(tokens[j - 1]!, tokens[j]!) ? houseNumber(j) : null;
      // Its own name may stand before it ("Bağdat Caddesi No: 245"), and after the number ("ngõ 120 Trần Duy Hưng").
      if (number !== null) return [namesBefore(i), namesAfter(number)];
      // Or the house number before the street word and its name: "4521 شارع الأمير سلطان", "15 rue des Lilas".
      const before = tokens[i - 1];
      if (before && houseNumber(i - 1) === i - 1 && joined(before, tokens[i]!) && j > streetEnd + 1) return [i - 1, j - 1];
    }
    // The name first: then the street word and the number, or the number before the name ("14, Kamiti Road").
    if (LOWER.test(tokens[i]!.text) && english) return null;
    const start = namesBefore(i);
    if (start === i) return null;
    // An English street word takes its number before the name ("22 Baker Street"): "Handmade Bags Lot 7" is no street.
    const after = !english && tokens[streetEnd + 1] && near(tokens[streetEnd]!, tokens[streetEnd + 1]!) ? houseNumber(streetEnd + 1) : null;
    if (after !== null) return [start, after];
    const before = tokens[start - 1];
    return before?.number && near(before, tokens[start]!) ? [start - 1, streetEnd] : null;
  }

  /** The first of up to MAX_NAME_WORDS name words joined before token `first` (itself when none). */
  function namesBefore(first: number): number {
    let start = first;
    while (start > 0 && first - start < MAX_NAME_WORDS && isName(tokens[start - 1]) && joined(tokens[start - 1]!, tokens[start]!)) start--;
    return start;
  }

  /** One more part of the address after `last`: a unit and its number ("кв. 14", "Apt 3B"), or a district or town after a comma. */
  function extendPart(j: number, last: Token): number | null {
    const t = tokens[j];
    if (!t) return null;
    // A flat or door by its marker alone: "D: 7".
    const marked = t.number ? null : houseNumber(j);
    if (marked !== null && joined(last, t)) return marked;
    const unit = wordAt(j, UNITS);
    if (unit && near(last, t)) {
      const number = tokens[unit[0] + 1] && near(tokens[unit[0]]!, tokens[unit[0] + 1]!) ? houseNumber(unit[0] + 1) : null;
      if (number !== null) return number;
    }
    if (!nextPart(last, t)) return null;
    // A district's or town's word before its name, in its own language: "phường Trung Hòa", "quận Cầu Giấy" (never an English word: ", and London").
    const label = !t.number && !isName(t) && !isEnglishWord(t.text) && isName(tokens[j + 1]) && joined(t, tokens[j + 1]!) ? 1 : 0;
    const part = tokens[j + label]!;
    if (!(isName(part) || part.number)) return null;
    let end = namesAfter(j + label);
    if (tokens[end + 1]?.number && joined(tokens[end]!, tokens[end + 1]!)) end++;
    return end;
  }

  /** The last of up to MAX_NAME_WORDS name words joined after token `last` (itself when none follows); a unit or a marked number is a part of its own. */
  function namesAfter(last: number): number {
    let end = last;
    const nameNext = () =>
      isName(tokens[end + 1]) && joined(tokens[end]!, tokens[end + 1]!) && !wordAt(end + 1, UNITS) && houseNumber(end + 1) === null;
    while (end - last < MAX_NAME_WORDS && nameNext()) end++;
    return end;
  }
}
